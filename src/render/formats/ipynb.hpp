// --format ipynb: a lesson's --format python script as a Jupyter notebook (nbformat 4.5). The
// script is written in the percent format ("# %%" opens a code cell, "# %% [markdown]" a cell
// of commented prose), so the notebook has the same cells in the same order. The JSON is spelled
// as nbformat itself writes it (keys sorted, one space of indent, text as UTF-8), with cell ids
// derived from each cell's place and text, so the same run gives the same bytes.
#pragma once

#include <string>

namespace embdemo {

std::string render_ipynb(const std::string& percent_script);

}  // namespace embdemo
