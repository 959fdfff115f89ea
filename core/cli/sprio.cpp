// sprio.cpp - the priority factors of pending jobs (PriorityFactorsRequest), in Slurm's layout.
#include "cli/command_docs.hpp"

#include <unordered_set>
#include "cli/alloc.hpp"
#include "cli/clusters.hpp"
#include "cli/rpc.hpp"
#include "cli/text.hpp"
#include "cli/command_main.hpp"
#include "cli/sprio_args.hpp"
#include "cli/sprio_fields.hpp"
#include "cli/users.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sprio";

constexpr const char *kHelp =
    "Usage: sprio [OPTIONS]\n"
    "      --federation                display jobs in federation if a member of one\n"
    "  -h, --noheader                  no headers on output\n"
    "  -j, --jobs                      comma separated list of jobs\n"
    "                                  to view, default is all\n"
    "      --local                     display jobs on local cluster only\n"
    "  -l, --long                      long report\n"
    "  -M, --cluster=cluster_name      cluster to issue commands to.  Default is\n"
    "                                  current cluster.  cluster with no name will\n"
    "                                  reset to default.\n"
    "                                  NOTE: SlurmDBD must be up.\n"
    "  -n, --norm                      display normalized values\n"
    "  -o, --format=format             format specification\n"
    "      --sibling                   display job records separately for each federation "
    "cluster\n"
    "  -p, --partition=partition_name  comma separated list of partitions\n"
    "  -u, --user=user_name            comma separated list of users to view\n"
    "  -v, --verbose                   verbosity level\n"
    "  -V, --version                   output version information and exit\n"
    "  -w, --weights                   show the weights for each priority factor\n"
    "\n"
    "Help options:\n"
    "  --help                          show this help message\n"
    "  --helpformat                    print a list of fields that can be specified\n"
    "                                  with '--format=' option\n"
    "  --usage                         display a brief summary of sprio options\n";

constexpr const char *kUsage =
    "Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
    "   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]\n";

constexpr CommandText kText{kProg, kHelp, kUsage};

SprioFactors factors_of(const proto::PriorityFactors *p) {
    SprioFactors f;
    if (!p) return f;
    f.age = p->age();
    f.assoc = p->assoc();
    f.fairshare = p->fairshare();
    f.job_size = p->job_size();
    f.partition = p->partition();
    f.qos = p->qos();
    f.site = p->site();
    f.nice = p->nice();
    if (p->tres())
        for (const auto *t : *p->tres()) f.tres.push_back({proto::str(t->name()), t->value()});
    return f;
}

SprioReport report_of(const proto::PriorityFactorsResponse &r) {
    SprioReport out;
    out.weights = factors_of(r.weights());
    if (!r.jobs()) return out;
    for (const auto *j : *r.jobs()) {
        SprioJob s;
        s.job_id = j->job_id();
        s.user = proto::str(j->user_name());
        if (s.user.empty()) s.user = user_name(j->user_id());
        s.account = proto::str(j->account());
        s.partition = proto::str(j->partition());
        s.qos = or_default(proto::str(j->qos()), "normal"); // as squeue's %q shows it
        if (j->factors()) s.factors = factors_of(j->factors());
        s.priority = j->priority();
        out.jobs.push_back(std::move(s));
    }
    return out;
}

// -u: each name that is no user is reported (Slurm's message ends in its own newline, so a blank
// line follows) and left out; when none is left, no job is the user's.
SprioUsers users_of(const SprioArgs &a) {
    SprioUsers u;
    if (!a.users) return u;
    u = resolve_sprio_users(*a.users);
    for (const auto &name : u.unknown)
        write_err(std::string(kProg) + ": error: Invalid user: " + name + "\n\n");
    return u;
}

// -M: this cluster, or the one other cluster of the accounting store it names (the calls go
// there); otherwise Slurm's message, then its fatal line.
bool cluster_reachable(const SprioArgs &a) {
    if (!a.clusters) return true;
    auto err = sprio_cluster_error(*a.clusters, cli_config().cluster_name);
    if (!err) return true;
    if (a.clusters->find(',') == std::string::npos && use_cluster(trim(*a.clusters))) return true;
    print_error(kProg, *err);
    write_err(std::string(kProg) + ": fatal: Could not get cluster information\n");
    return false;
}

flatbuffers::Offset<proto::PriorityFactorsRequest>
factors_request(flatbuffers::FlatBufferBuilder &fbb, const SprioArgs &a,
                const std::vector<uint32_t> &uids) {
    auto jobs = fbb.CreateVector(a.job_ids);
    auto users = fbb.CreateVector(uids);
    auto parts = fbb.CreateVectorOfStrings(sprio_partitions(a));
    return proto::CreatePriorityFactorsRequest(fbb, jobs, users, parts);
}

// Another member's answer, or nullptr (a refusal); throws as call_ctld does.
const proto::PriorityFactorsResponse *ask_quietly(net::Reply &reply, const SprioArgs &a,
                                                  const std::vector<uint32_t> &uids) {
    flatbuffers::FlatBufferBuilder fbb(256);
    auto req = factors_request(fbb, a, uids);
    reply = call_ctld(fbb, proto::Body::PriorityFactorsRequest, req.Union());
    return reply.msg->body_as_PriorityFactorsResponse();
}

// The controller's answer; nullptr after Slurm's line for a refusal or no controller at all.
const proto::PriorityFactorsResponse *ask(net::Reply &reply, const SprioArgs &a,
                                          const std::vector<uint32_t> &uids) {
    constexpr const char *kFailed = "Couldn't get priority factors from controller: ";
    flatbuffers::FlatBufferBuilder fbb(256);
    auto req = factors_request(fbb, a, uids);
    try {
        return ask_ctld<proto::PriorityFactorsResponse>(
            reply, fbb, proto::Body::PriorityFactorsRequest, req.Union(), error_line(kFailed));
    } catch (const net::NetError &e) {
        write_err(std::string(kFailed) + e.what() + "\n");
        return nullptr;
    }
}

// A federated view (--federation, --sibling, fed_display): the jobs of every member, each named
// by the member that reported it; a job is shown once, as this cluster (else the first member,
// by name) reports it, unless --sibling asks for each member's record. A member that does not
// answer is left out.
void add_members(const SprioArgs &a, const std::vector<uint32_t> &uids, SprioReport &report) {
    const auto members = federation_view_clusters(a.view, a.clusters.has_value());
    if (members.empty()) return;
    const std::string self = cli_config().cluster_name;
    std::unordered_set<uint32_t> seen;
    for (auto &j : report.jobs) {
        j.cluster = self;
        seen.insert(j.job_id);
    }
    for (const auto &name : members) {
        if (name == self || !use_cluster(name)) continue;
        net::Reply reply;
        const proto::PriorityFactorsResponse *r = nullptr;
        try {
            r = ask_quietly(reply, a, uids);
        } catch (const std::exception &) {}
        if (!r) continue;
        for (auto &j : report_of(*r).jobs) {
            if (!a.sibling && !seen.insert(j.job_id).second) continue;
            j.cluster = name;
            report.jobs.push_back(std::move(j));
        }
    }
    set_working_cluster(std::nullopt);
}

// What Slurm reports before it asks the controller; false when it stops there.
bool preamble(const SprioArgs &a, const SprioUsers &users) {
    if (a.verbose) write_out(sprio_options_text(a, users.uids));
    return cluster_reachable(a);
}

int run(const SprioArgs &a) {
    if (a.fatal) {
        write_err(std::string(kProg) + ": fatal: " + *a.fatal + "\n");
        return 1;
    }
    if (a.helpformat) {
        write_out(sprio_format_letters());
        return 0;
    }
    if (a.unrecognized) {
        print_error(kProg, "Unrecognized option: " + *a.unrecognized);
        write_out(kUsage);
        return 1;
    }
    SprioUsers users = users_of(a);
    if (!preamble(a, users)) return 1;
    SprioOutput out{!a.noheader, a.weights, a.jobs.has_value()};
    out.sort = parse_sprio_sort(a.sort.value_or("i")); // a bad -S fails before any RPC

    net::Reply reply;
    const auto *r = ask(reply, a, users.uids);
    if (!r) return 1;
    std::string_view type = r->priority_type() ? r->priority_type()->string_view() : "";
    if (auto err = sprio_plugin_error(type)) {
        write_err(*err);
        return 1;
    }
    SprioReport report = report_of(*r);
    add_members(a, users.uids, report);
    if (a.users && users.uids.empty()) report.jobs.clear();
    SprioFormat fmt = sprio_format(a.format.value_or(sprio_default_format(
        report.weights, {a.normalized, a.long_list, a.users.has_value(), a.sibling})));
    for (const auto &e : fmt.errors) print_error(kProg, e);
    write_out(sprio_text(fmt, report, out));
    return 0;
}

SprioArgs parse(std::span<const std::string> args) {
    return parse_sprio_args(args, process_env());
}

} // namespace

int sprio_main(std::span<const std::string> args) {
    return command_main(kText, args, parse, run);
}

std::string_view sprio_help() {
    return kHelp;
}

} // namespace drover::cli
