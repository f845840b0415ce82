// train_figure: the loss curve, one bar per shown step (or stretch of a skip-gram run), on the
// chart's log and linear axes; the caption is the sheet's.
#include <fmt/format.h>

#include "render/views/train/view.hpp"

namespace embdemo {

Figure train_figure(const TrainLesson& lesson, const TrainViewSettings& settings, int precision) {
    const TrainRequest& request = lesson.request;
    FigureChart chart;
    chart.unit = "loss";
    const auto bar = [&chart, precision](std::string label, double value) {
        FigureBar b;
        b.label = std::move(label);
        b.value = value;
        b.value_text = fmt::format("{:.{}f}", value, precision);
        chart.bars.push_back(std::move(b));
    };
    if (request.model == TrainModel::skipgram) {
        chart.title = "The loss over the run's stretches";
        for (std::size_t i = 0; i < lesson.skipgram_loss.size(); ++i) bar(fmt::format("stretch {}", i + 1), lesson.skipgram_loss[i]);
    } else {
        chart.title = "The loss before each shown step, and after the last";
        for (const std::size_t t : shown_steps(lesson.steps.size(), settings.every)) bar(fmt::format("step {}", t + 1), lesson.steps[t].loss);
        bar("after", lesson.final_loss);
    }
    Figure figure;
    figure.title = fmt::format("Training {} (V = {}, {})", train_model_name(request.model), request.vocab_size,
                               request.model == TrainModel::skipgram ? fmt::format("{} epochs", request.skipgram.epochs)
                                                                     : fmt::format("{} steps", request.steps));
    figure.chart = std::move(chart);
    return figure;
}

}  // namespace embdemo
