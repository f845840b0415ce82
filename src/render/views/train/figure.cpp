// train_figure: the loss as a line, per step taken (the loss before step t + 1 is that after t
// steps; the last point is the loss after the run) or per stretch of a skip-gram run, every step
// drawn whatever --every; beside it E before and after training on its top two principal
// components. The caption is the sheet's, and the share of variance those two explain.
#include <cmath>

#include <fmt/format.h>

#include "core/lessons/table_pca.hpp"
#include "render/views/train/view.hpp"

namespace embdemo {
namespace {

// Past these the picture would be a cloud of dots (rows) or the Jacobi sweeps would take seconds
// (columns: they cost columns^3 each): the caption says why there is no picture.
constexpr std::size_t k_pca_max_rows = 1000;
constexpr std::size_t k_pca_max_cols = 256;

std::string variance_percent(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

FigureScatterFrame pca_frame(const std::string& when, const TablePca& pca, const TrainLabels& labels) {
    FigureScatterFrame frame;
    frame.title = fmt::format("{}: {} of the variance", when, variance_percent(pca.share()));
    for (std::size_t r = 0; r < pca.coords.size(); ++r) {
        frame.points.push_back({pca.coords[r][0], pca.coords[r][1]});
        frame.labels.push_back(labels.of(r));
    }
    return frame;
}

// The table before and after training on its top two principal components, and the caption's
// sentence saying how much of the rows' variance those two hold.
void add_pca(Figure& figure, const TrainLesson& lesson, const TrainLabels& labels) {
    const Matrix& before = lesson.initial;
    const Matrix& after = lesson.weight;
    if (before.rows < 2 || before.cols < 2) return;
    if (before.rows > k_pca_max_rows || before.cols > k_pca_max_cols) {
        figure.caption.push_back(fmt::format("No PCA picture of E: it has {} rows of {} (the picture draws up to {} rows of {}).",
                                             before.rows, before.cols, k_pca_max_rows, k_pca_max_cols));
        return;
    }
    const TablePca first = table_pca(before);
    const TablePca last = table_pca(after);
    FigureScatter scatter;
    scatter.title = "E's rows on their top two principal components";
    scatter.x_label = "PC1";
    scatter.y_label = "PC2";
    scatter.frames.push_back(pca_frame("before", first, labels));
    scatter.frames.push_back(pca_frame("after", last, labels));
    figure.scatter = std::move(scatter);
    figure.caption.push_back(fmt::format("PCA of E's {} rows (centred, in double): PC1 and PC2 explain {} of their variance "
                                         "before training ({:.4g} and {:.4g} of {:.4g}), {} after ({:.4g} and {:.4g} of {:.4g}).",
                                         before.rows, variance_percent(first.share()), first.variance[0], first.variance[1],
                                         first.total_variance, variance_percent(last.share()), last.variance[0], last.variance[1],
                                         last.total_variance));
}

}  // namespace

Figure train_figure(const TrainLesson& lesson, const TrainViewSettings& settings, int precision) {
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
    add_pca(figure, lesson, settings.labels);
    return figure;
}

}  // namespace embdemo
