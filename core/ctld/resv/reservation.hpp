// reservation.hpp - one advance reservation: when it lasts, which nodes it holds, who may run in
// it, and its flags (Slurm's names). Pure data with the rules that read only it; the controller's
// Reservations (reservations.hpp) owns every reservation and keeps them in the state store.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/bitmap.hpp"
#include "common/resv_flags.hpp"

namespace drover::ctld {

// A list of names that admits (alice,bob) or, written with a leading '-', shuts out (-carol).
struct NameList {
    std::vector<std::string> names;
    bool exclude = false;
    bool empty() const { return names.empty(); }
    bool admits(std::string_view name) const;
    std::string text() const; // as scontrol shows it; empty for none
    static NameList parse(std::string_view text);
};

struct Reservation {
    std::string name;
    int64_t start = 0, end = 0; // end 0: it never ends
    std::vector<std::string> node_names;
    Bitmap nodes;      // the same, by node index
    uint32_t cpus = 0; // CPUs of its nodes (CoreCnt)
    uint32_t node_cnt_asked = 0;
    std::string partition, features, licenses;
    uint64_t flags = 0;
    NameList users, accounts;
    uint32_t max_start_delay_s = 0;

    bool active(int64_t now) const { return start <= now && (end == 0 || now < end); }
    // Whether it holds its nodes at some time in [from, to) (to 0: for good).
    bool overlaps(int64_t from, int64_t to) const {
        return (to == 0 || start < to) && (end == 0 || from < end);
    }
    // Whether a job of user and account may run in it (both lists must admit, where given).
    bool admits(std::string_view user, std::string_view account) const {
        return (users.empty() || users.admits(user)) &&
               (accounts.empty() || accounts.admits(account));
    }
    // A recurring reservation's next occurrence after its end: moves start and end on. False
    // for one that does not recur.
    bool advance();
};

} // namespace drover::ctld
