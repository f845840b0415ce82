// What bash completion offers, printed by the hidden `embdemo --completion-data` for
// src/cli/embdemo.bash-completion: the lessons, each lesson's options, the fixed values of an
// option, and which options take a file or a directory. Made from the registry's option data
// and the parsers' own tables, so that completion cannot offer what the parser refuses.
#pragma once

#include <string>

namespace embdemo {

// One record a line, words separated by single spaces (no option or value holds a space):
//   lessons NAME...            the lesson names, and help
//   options LESSON OPTION...   what may follow `embdemo LESSON` ("-": no lesson named yet)
//   values OPTION VALUE...     an option's fixed values
//   files OPTION...            options whose value is a file name
//   dirs OPTION...             options whose value is a directory name
//   free OPTION...             options whose value is anything else (nothing to offer)
std::string completion_data();

}  // namespace embdemo
