// scancel.cpp - cancel or signal jobs by id or by filter with one JobSignalRequest.
#include <unistd.h>

#include <algorithm>

#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include <map>

#include "cli/clusters.hpp"
#include "cli/command_main.hpp"
#include "cli/load_records.hpp"
#include "cli/scancel_args.hpp"
#include "cli/scancel_select.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "scancel";

// Slurm's refusal line for a job ("12", "12_3") or a step ("12.1"): what scripts match.
std::string kill_error(const std::string &label, const std::string &why) {
    bool step = label.find('.') != std::string::npos;
    return std::string("Kill job error on job ") + (step ? "step id " : "id ") + label + ": " + why;
}

constexpr const char *kHelp =
    "Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]\n"
    "  -A, --account=account           act only on jobs charging this account\n"
    "  -b, --batch                     signal batch shell for specified job\n"
    "  -f, --full                      signal batch shell and all steps for specified job\n"
    "  -i, --interactive               require response from user for each job\n"
    "      --me                        equivalent to --user=<my username>\n"
    "  -n, --name=job_name             act only on jobs with this name\n"
    "  -p, --partition=partition       act only on jobs in this partition\n"
    "  -q, --qos=qos                   act only on jobs with this quality of service\n"
    "  -Q, --quiet                     disable warnings\n"
    "  -R, --reservation=reservation   act only on jobs with this reservation\n"
    "  -s, --signal=name | integer     signal to send to job, default is SIGKILL\n"
    "  -t, --state=states              act only on jobs in this state.  Valid job\n"
    "                                  states are PENDING, RUNNING and SUSPENDED\n"
    "  -u, --user=user_name            act only on jobs of this user\n"
    "  -V, --version                   output version information and exit\n"
    "  -v, --verbose                   verbosity level\n"
    "  -w, --nodelist                  act only on jobs on these nodes\n"
    "\n"
    "Help options:\n"
    "  --help                          show this help message\n"
    "  --usage                         display brief usage message\n";

constexpr const char *kUsage =
    "Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]\n"
    "               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]\n"
    "               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]\n"
    "               [-V] [-v] [-w hosts...] [--wckey=wckey] [job_id[_array_id][.step_id]]\n";

constexpr CommandText kText{kProg, kHelp, kUsage};

// The controller's answer, item by item: prints the failures; returns the exit status. The
// controller names each job or array task it acted on. The tasks of an array named by its bare
// id that had already ended are not errors (the array's live tasks were cancelled), unless none
// of it was left: then the id as written is the one in error.
int report_results(const ScancelArgs &a, const proto::JobSignalResponse &r) {
    struct Failure {
        std::string label, msg;
    };
    std::vector<Failure> failures;
    auto owning_bare_spec = [&](const std::string &label) -> const JobSpec * {
        auto item = parse_job_spec(label);
        if (!item || !item->has_tasks) return nullptr;
        for (const auto &j : a.jobs)
            if (j.text == label) return nullptr; // named as written
        for (const auto &j : a.jobs)
            if (!j.has_tasks && j.job_id == item->job_id) return &j;
        return nullptr;
    };
    constexpr std::string_view kDone = "already completing or completed";
    std::vector<std::pair<const JobSpec *, bool>> arrays; // bare array spec, any item acted on
    auto note_array = [&](const JobSpec *s, bool ok) {
        for (auto &x : arrays)
            if (x.first == s) {
                x.second = x.second || ok;
                return;
            }
        arrays.emplace_back(s, ok);
    };
    std::vector<std::string> answered; // every label the controller answered for
    if (r.results()) {
        for (const auto *res : *r.results()) {
            std::string id = res->node() ? res->node()->str() : "?";
            std::string msg = res->message() ? res->message()->str() : "error";
            answered.push_back(id);
            const JobSpec *array = owning_bare_spec(id);
            if (array && (res->rc() == 0 || msg.find(kDone) != std::string::npos)) {
                note_array(array, res->rc() == 0);
                continue;
            }
            if (res->rc() != 0) failures.push_back({id, msg});
        }
    }
    for (const auto &[spec, any_ok] : arrays) {
        if (any_ok) continue;
        // The array's pending record answers for the id itself; without one every task had ended.
        if (std::find(answered.begin(), answered.end(), spec->text) == answered.end())
            failures.push_back({spec->text, "Job/step already completing or completed"});
    }
    for (const auto &f : failures) print_error(kProg, kill_error(f.label, f.msg));
    return failures.empty() ? 0 : 1;
}

// One JobSignalRequest for specs; with server_filters the controller also applies the user,
// name, state and partition filters (uid 0xfffffffe: any user).
int signal_jobs(const ScancelArgs &a, const std::vector<std::string> &specs, uint32_t uid,
                bool server_filters) {
    if (a.verbose)
        for (const auto &s : specs) write_err("scancel: Terminating job " + s + "\n");
    flatbuffers::FlatBufferBuilder fbb;
    // Every id goes as a spec ("12", "12_3", "12_[1-4]"); the controller answers per job or task.
    auto job_specs = fbb.CreateVectorOfStrings(specs);
    auto name = server_filters && a.name ? fbb.CreateString(*a.name) : 0;
    auto states = server_filters ? fbb.CreateVector(a.states) : 0;
    auto part = server_filters && a.partition ? fbb.CreateString(*a.partition) : 0;
    auto sibling = a.sibling ? fbb.CreateString(*a.sibling) : 0;
    proto::JobSignalRequestBuilder b(fbb);
    b.add_sibling(sibling);
    b.add_job_specs(job_specs);
    b.add_signal(a.signal.value_or(9));
    b.add_user_id(server_filters ? uid : 0xfffffffe);
    b.add_name(name);
    b.add_states(states);
    b.add_partition(part);
    b.add_batch_only(a.batch);
    b.add_full(a.full);
    auto req = b.Finish();

    net::Reply reply;
    const auto *r = ask_ctld<proto::JobSignalResponse>(
        reply, fbb, proto::Body::JobSignalRequest, req.Union(), [&](const net::RpcError &e) {
            if (specs.size() == 1)
                print_error(kProg, kill_error(specs[0], e.what()));
            else
                print_error(kProg, e.what());
        });
    if (!r) return 1;
    return report_results(a, *r);
}

// Slurm's scancel with a filter the signal request does not carry, or -i: load the jobs, choose
// them here, ask about each with -i, then signal the chosen ones by id.
int signal_selected(const ScancelArgs &a, std::optional<uint32_t> uid) {
    net::Reply reply;
    const auto *r = load_jobs(reply, {});
    if (!r) return 1;
    std::vector<const proto::JobInfo *> all = records_of(r->jobs());
    int rc = 0;
    if (!a.quiet)
        for (const auto &id : scancel_unknown_ids(a, all)) {
            print_error(kProg, kill_error(id, "Invalid job id specified"));
            rc = 1;
        }
    std::vector<const proto::JobInfo *> chosen = scancel_select(a, uid, all);
    if (chosen.empty() && a.has_filter() && a.verbose > 0)
        print_error(kProg, scancel_no_match_message(a));
    std::vector<std::string> specs;
    for (const auto *j : chosen) {
        if (a.interactive && !scancel_confirm(*j, stdin, stdout)) continue;
        for (auto &s : scancel_specs_for(a, *j))
            if (std::find(specs.begin(), specs.end(), s) == specs.end())
                specs.push_back(std::move(s));
    }
    if (specs.empty()) return rc;
    return std::max(rc, signal_jobs(a, specs, 0xfffffffe, /*server_filters=*/false));
}

// parse_scancel_args with the SCANCEL_* variables of the process.
ScancelArgs parse_args(std::span<const std::string> args) {
    return parse_scancel_args(args, process_env());
}

int run(const ScancelArgs &a) {
    if (a.jobs.empty() && !a.has_filter()) {
        print_error(kProg, "No job identification provided");
        return 1;
    }
    std::optional<uint32_t> uid;
    if (a.user) {
        uid = lookup_user(*a.user);
        if (!uid) {
            print_error(kProg, "Invalid user name: " + *a.user);
            return 1;
        }
    } else if (a.me) {
        uid = static_cast<uint32_t>(::getuid());
    }
    if (a.selects_jobs()) return signal_selected(a, uid);
    // A job another cluster of the federation gave is that cluster's to signal (without -M).
    // No ids: the controller picks the jobs by the filters.
    std::map<std::string, std::vector<std::string>> by_origin;
    if (a.jobs.empty()) by_origin[""];
    for (const auto &j : a.jobs)
        by_origin[a.on_clusters ? std::string() : origin_cluster(j.job_id)].push_back(j.text);
    int rc = 0;
    for (const auto &[origin, specs] : by_origin) {
        if (!origin.empty() && !use_cluster(origin)) continue;
        rc = std::max(rc, signal_jobs(a, specs, uid.value_or(0xfffffffe), /*server_filters=*/true));
        if (!origin.empty()) set_working_cluster(std::nullopt);
    }
    return rc;
}

} // namespace

int scancel_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_args, run);
}

std::string_view scancel_help() {
    return kHelp;
}

} // namespace drover::cli
