// train_figure: the loss as a line, per step taken (the loss before step t + 1 is that after t
// steps; the last point is the loss after the run) or per stretch of a skip-gram run; the caption
// is the sheet's.
#include <cmath>

#include <fmt/format.h>

#include "render/views/train/view.hpp"

namespace embdemo {

Figure train_figure(const TrainLesson& lesson, const TrainViewSettings& settings, int precision) {
    (void)settings;  // every step is drawn: the line needs no --every to stay readable
    const TrainRequest& request = lesson.request;
    FigurePlot plot;
    plot.precision = precision;
    std::size_t not_finite = 0;
    // A diverged run's NaN or infinite losses have no height; the title counts them instead.
    const auto add = [&plot, &not_finite](double x, double loss) {
        if (std::isfinite(loss)) {
            plot.points.push_back({x, loss});
        } else {
            ++not_finite;
        }
    };
    if (request.model == TrainModel::skipgram) {
        plot.title = "The loss over the run's stretches";
        plot.x_label = "stretch of the run";
        plot.y_label = "loss: -log sigmoid per pair, mean over a stretch";
        for (std::size_t i = 0; i < lesson.skipgram_loss.size(); ++i) add(static_cast<double>(i + 1), lesson.skipgram_loss[i]);
    } else {
        plot.title = "The loss before each step, and after the last";
        plot.x_label = "steps taken";
        plot.y_label = "loss: F.cross_entropy's mean";
        for (std::size_t t = 0; t < lesson.steps.size(); ++t) add(static_cast<double>(t), lesson.steps[t].loss);
        add(static_cast<double>(lesson.steps.size()), lesson.final_loss);
    }
    if (not_finite > 0) {
        plot.title += fmt::format(" ({} of {} not finite, not drawn)", not_finite, not_finite + plot.points.size());
    }
    Figure figure;
    figure.title = fmt::format("Training {} (V = {}, {})", train_model_name(request.model), request.vocab_size,
                               request.model == TrainModel::skipgram ? fmt::format("{} epochs", request.skipgram.epochs)
                                                                     : fmt::format("{} steps", request.steps));
    if (!plot.points.empty()) figure.plot = std::move(plot);
    return figure;
}

}  // namespace embdemo
