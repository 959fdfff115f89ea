// fuzz_admission.cpp - arbitrary sequences of connections opening, waiting, authenticating and
// closing, from a handful of peers at arbitrary times, against net::Admission: its counts must stay
// within its limits and no connection may be evicted twice.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "net/admission.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using drover::net::Admission;
    Admission::Limits limits;
    limits.open = 12;
    limits.waiting = 8;
    limits.waiting_per_peer = 3;
    limits.min_age = std::chrono::milliseconds(50);
    Admission adm(limits);
    auto now = Admission::Clock::time_point{} + std::chrono::hours(1);
    std::vector<Admission::Id> ids;
    for (std::size_t i = 0; i + 1 < size; i += 2) {
        uint8_t op = data[i] % 5, arg = data[i + 1];
        now += std::chrono::milliseconds(arg % 64);
        Admission::Id pick = ids.empty() ? 0 : ids[arg % ids.size()];
        switch (op) {
        case 0: {
            auto evictions = std::make_shared<int>(0);
            Admission::Id id = adm.open(
                "peer" + std::to_string(arg % 4),
                [evictions] {
                    if (++*evictions > 1) std::abort();
                },
                now);
            if (id) ids.push_back(id);
            break;
        }
        case 1:
            adm.wait(pick, now);
            break;
        case 2:
            adm.authenticated(pick);
            break;
        case 3:
        case 4:
            adm.close(pick);
            break;
        }
        if (adm.open_count() > limits.open || adm.waiting_count() > limits.waiting) std::abort();
    }
    return 0;
}
