// shepherd_main.cpp - drover-shepherd FD: one step's shepherd on a node, exec'd by droverd with
// the step's spec in the memory file FD (shepherd_codec.hpp). Not meant to be run by hand.
#include <cstdio>
#include <cstdlib>

#include "noded/shepherd_codec.hpp"

int main(int argc, char **argv) {
    char *end = nullptr;
    long fd = argc == 2 ? std::strtol(argv[1], &end, 10) : -1;
    if (fd < 0 || !end || *end) {
        std::fputs("usage: drover-shepherd FD (droverd runs it for each step)\n", stderr);
        return 2;
    }
    drover::noded::shepherd_main(int(fd));
}
