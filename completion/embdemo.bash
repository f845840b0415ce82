# bash completion for embdemo, installed to share/bash-completion/completions/embdemo.
# Completes option names, the fixed values of --format, --show and --color, and file or
# directory names where an option takes one. tests/scripts/install.sh checks that every option
# of `embdemo --help` appears here.

_embdemo() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
        --format) mapfile -t COMPREPLY < <(compgen -W "text json csv tsv markdown" -- "$cur"); return ;;
        --show) mapfile -t COMPREPLY < <(compgen -W "weight onehot lookup onehot_matmul linear_output" -- "$cur"); return ;;
        --color) mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur"); return ;;
        --weights) _filedir '@(npy|csv|tsv)'; return ;;
        --save-weights) _filedir npy; return ;;
        --labels) _filedir; return ;;
        --export-projector) _filedir -d; return ;;
        --ids | --vocab | --dim | --seed | --precision) return ;;
    esac
    mapfile -t COMPREPLY < <(compgen -W "--help --version --ids --vocab --dim --seed --weights --format
        --show --precision --color --save-weights --export-projector --labels" -- "$cur")
}
complete -F _embdemo embdemo
