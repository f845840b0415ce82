// Every exit status embdemo can return, in one place (also listed in --help and README.md).
#pragma once

namespace embdemo {

enum ExitCode : int {
    k_exit_ok = 0,           // ran; the lookup and the one-hot product are identical bit for bit
    k_exit_failure = 1,      // could not finish: writing the output failed, or an internal error
    k_exit_usage = 2,        // bad command line or bad input; nothing was written to stdout
    k_exit_differ = 3,       // ran; the two results differ (possible only with unusual weights)
};

}  // namespace embdemo
