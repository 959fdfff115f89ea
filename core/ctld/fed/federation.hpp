// federation.hpp - clusters that share one accounting store, as the store describes them: each
// cluster's federation, federation id, FedState and features (set by sacctmgr on the cluster's
// record), and the address its controller in control registered (a record of its own, written
// only by that cluster's controller, so that two controllers never overwrite each other's).
// Pure functions of the controller's copy of the store (AssocDb), and the Federation component
// that keeps the view of the controller's own federation as that copy changes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/config.hpp"
#include "ctld/acct/assoc_db.hpp"
#include "ctld/jobs/job.hpp"
#include "net/server.hpp"

namespace drover::ctld {

struct Ctx;

// A job id of a federation: bits 26-31 the origin cluster's federation id, bits 0-25 its local id.
inline constexpr uint32_t kFedIdShift = 26;
inline constexpr uint32_t kLocalIdMask = (1u << kFedIdShift) - 1;
inline constexpr uint32_t kMaxFedId = 63;
inline uint32_t fed_origin(uint32_t job_id) {
    return job_id >> kFedIdShift;
}
// A member in a set of members (a federated job's viable and active siblings): bit id-1.
inline uint64_t fed_bit(uint32_t fed_id) {
    return fed_id ? uint64_t(1) << (fed_id - 1) : 0;
}
// A copy of a federated job that another member's origin sent (fed_jobs.hpp), not revoked here:
// the member that gave a job counts itself among the holders of its copies, or has revoked its
// own. Known from the job alone, in or out of a federation.
inline bool sibling_copy(const Job &job) {
    const JobExtra &x = job.ext();
    return x.siblings_viable && !x.siblings_active && !(job.state_flags & DROVER_JOB_FLAG_REVOKED);
}

// A cluster's federation state, as sacctmgr names them.
enum class FedState : uint8_t { Active, Inactive, Drain, DrainRemove };
const char *fed_state_name(FedState s);
// "ACTIVE", "INACTIVE", "DRAIN", "DRAIN+REMOVE" in any case; false for another word.
bool parse_fed_state(std::string_view text, FedState &out);

struct FedCluster {
    std::string name, federation;
    uint32_t id = 0; // 1..63 inside a federation, 0 outside
    FedState state = FedState::Active;
    std::vector<std::string> features;
    // Where its controllers listen (SlurmctldHost lines in order, SlurmctldPort), as registered.
    std::vector<ControllerHost> controllers;
    uint16_t port = 0;
    std::string control_host() const; // the first controller's address, "" when unregistered
};

// A cluster record's federation settings (attrs keys federation, fed_id, fedstate, features).
FedCluster fed_settings(const AssocRec &cluster);
void set_fed_settings(AssocRec &cluster, const FedCluster &c);

// The record a controller in control writes for its cluster, and the addresses it holds.
AssocRec controller_rec(const std::string &cluster, const Config &conf);
void read_controllers(const AssocRec &rec, FedCluster &c);

// One cluster of the store with its settings and registered address; every one, by name.
FedCluster store_cluster(const AssocDb &db, const AssocRec &cluster);
std::vector<FedCluster> store_clusters(const AssocDb &db);

// A cluster's view of its federation: empty name when it belongs to none.
struct FedView {
    std::string name;
    std::vector<FedCluster> members; // by name, self among them
    const FedCluster *self() const;
    const FedCluster *member(std::string_view cluster) const;
    const FedCluster *member(uint32_t fed_id) const;
    // Bits 26-31 of the ids this cluster gives its jobs (0 outside a federation).
    uint32_t self_id() const;
    std::string self_name;
};
FedView federation_view(const AssocDb &db, std::string_view self);

// The members a job may run on: ACTIVE ones, among clusters (-M's "a,b"; empty: any) and with
// every feature of features (--cluster-constraint "f1,f2"; "!f1,f2": with none of them).
uint64_t viable_members(const FedView &view, std::string_view clusters, std::string_view features);
// "c1,c3": the names of the members in a set, by name.
std::string member_names(const FedView &view, uint64_t set);

// Keeps this controller's FedView as the store's copy changes, registers the controller's
// address in the store once it is in control, and answers FedInfoRequest (scontrol show
// federation; the commands' -M, which asks for every cluster of the store).
class Federation {
  public:
    explicit Federation(Ctx &ctx);
    ~Federation();
    const FedView &view() const;
    // The federation id this cluster puts in its job ids (0 outside a federation).
    uint32_t self_id() const;
    // Whether a sibling's controller answered the last ping (true until one went unanswered).
    bool answers(const std::string &cluster) const;
    void on_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
