// private_data.hpp - slurm.conf's PrivateData: which kinds of data only privileged users see in
// full. Parsed once with the configuration; the controller applies it (ctld/privacy.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace drover {

struct PrivateData {
    bool accounts = false;     // sacctmgr show account
    bool cloud = false;        // powered down cloud nodes are listed (sinfo, scontrol show node)
    bool events = false;       // sacctmgr show event
    bool jobs = false;         // squeue, scontrol show job/step, sstat, sacct
    bool nodes = false;        // sinfo, scontrol show node
    bool partitions = false;   // sinfo, scontrol show partition
    bool reservations = false; // scontrol show reservation: only those naming the user
    bool usage = false;        // sacct (Drover's only view of usage)
    bool users = false;        // sacctmgr show user/association

    bool any() const {
        return accounts || cloud || events || jobs || nodes || partitions || reservations ||
               usage || users;
    }
};

// Reads a PrivateData value: a comma list of the names above, in any case, singular or plural
// ("job" or "jobs"), or "all" for every one. Like Slurm, a word it does not know changes nothing;
// each such word is added to unknown (as written) so that the caller can warn.
PrivateData parse_private_data(std::string_view text, std::vector<std::string> *unknown);

} // namespace drover
