#include "cli/app.hpp"

int main(int argc, char* argv[]) { return embdemo::run_app(argc, argv); }
