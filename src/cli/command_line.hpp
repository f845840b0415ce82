// argv -> CommandLine: CLI11 reads the options every lesson declares (cli/lessons, as data),
// and the validators turn them into Options. Parsing only: nothing is computed or printed here.
#pragma once

#include <memory>

#include "cli/options.hpp"

namespace embdemo {

CommandLine parse_command_line(int argc, const char* const argv[]);

// parse_command_line's parser, kept for many command lines: building it (CLI11 checks each of
// some hundred options against the others) costs more than a parse, and the pipeline fuzz target
// parses millions of command lines in one process. Each parse starts from no options given.
class CommandLineParser {
public:
    CommandLineParser();
    ~CommandLineParser();
    CommandLineParser(const CommandLineParser&) = delete;
    CommandLineParser& operator=(const CommandLineParser&) = delete;
    CommandLine parse(int argc, const char* const argv[]);

private:
    struct Parts;  // CLI11's app, its subcommands and the strings they fill: kept out of this header
    std::unique_ptr<Parts> m_parts;
};

}  // namespace embdemo
