// scontrol.cpp - show, update, hold/release, create/delete reservation and partition, ping,
// reconfigure, shutdown; one-shot or interactive.
#include <unistd.h>

#include <cstdio>
#include <optional>

#include <drover/views.h>

#include "cli/command_docs.hpp"
#include <cstdlib>

#include "cli/clusters.hpp"
#include "cli/command_main.hpp"
#include "cli/scontrol_fed.hpp"
#include "cli/json_records.hpp"
#include "cli/load_records.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/scontrol_hosts.hpp"
#include "cli/scontrol_part.hpp"
#include "cli/scontrol_reboot.hpp"
#include "cli/scontrol_resv.hpp"
#include "cli/scontrol_pids.hpp"
#include "cli/scontrol_script.hpp"
#include "cli/scontrol_show.hpp"
#include "cli/scontrol_token.hpp"
#include "cli/scontrol_step.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "cli/yaml_writer.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "proto/key_values.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "scontrol";

constexpr const char *kHelp =
    "scontrol [<OPTION>] [<COMMAND>]\n"
    "    Valid <OPTION> values are:\n"
    "     -d or --details: make show command print more details\n"
    "     -F or --future: report nodes in FUTURE state\n"
    "     -h or --help: equivalent to \"help\" command\n"
    "     --json: produce JSON output (show job, node, partition)\n"
    "     --yaml: produce YAML output (show job, node, partition)\n"
    "     -o or --oneliner: equivalent to \"oneliner\" command\n"
    "     -Q or --quiet: equivalent to \"quiet\" command\n"
    "     -v or --verbose: equivalent to \"verbose\" command\n"
    "     -V or --version: equivalent to \"version\" command\n"
    "\n"
    "    <keyword> may be omitted from the execute line and scontrol will execute\n"
    "    in interactive mode. It will process commands as entered until explicitly\n"
    "    terminated.\n"
    "\n"
    "    Valid <COMMAND> values are:\n"
    "     create partition <SPECIFICATIONS>\n"
    "                              add a partition: PartitionName=<name> and the\n"
    "                              keys of its slurm.conf line.\n"
    "     create reservation <SPECIFICATIONS>\n"
    "                              make an advance reservation: StartTime with\n"
    "                              EndTime or Duration, Nodes or NodeCnt, Users\n"
    "                              or Accounts, and Flags, PartitionName, ...\n"
    "     cancel_reboot <NodeList> take back a reboot not yet sent to the nodes.\n"
    "     delete PartitionName=<name>\n"
    "                              remove a partition no job is pending or running in.\n"
    "     delete ReservationName=<name>\n"
    "                              end and remove a reservation.\n"
    "     exit                     terminate scontrol\n"
    "     help                     print this description of use.\n"
    "     hold <job_list>          prevent specified job from starting.\n"
    "     listpids <job_id<.step>> <NodeName>  list pids associated with a\n"
    "                              Slurm job_id or job_id.step_id on this node.\n"
    "     ping                     print status of slurmctld daemons.\n"
    "     quit                     terminate this command.\n"
    "     reboot [ASAP] [nextstate=RESUME|DOWN] [reason=<text>] ALL|<NodeList>\n"
    "                              reboot the nodes (RebootProgram) once idle; ASAP\n"
    "                              drains them meanwhile.\n"
    "     reconfigure              re-read configuration files.\n"
    "     release <job_list>       permit specified job to start.\n"
    "     requeue <job_list>       re-queue a batch job.\n"
    "     requeuehold <job_list>   re-queue and hold a batch job.\n"
    "     resume <job_list>        resume previously suspended job.\n"
    "     show <ENTITY> [<ID>]     display state of identified entity, default\n"
    "                              is all records.  <ENTITY> may be \"config\",\n"
    "                              \"federation\", \"hostlist\", \"hostlistsorted\",\n"
    "                              \"hostnames\", \"job\", \"licenses\", \"node\",\n"
    "                              \"partition\", \"reservation\" or \"step\".\n"
    "     shutdown                 shutdown slurm controller.\n"
    "     suspend <job_list>       suspend specified job (its CPUs may go to other\n"
    "                              jobs meanwhile; its memory stays allocated).\n"
    "     takeover [<INDEX>]       ask a backup controller (default the first) to take control.\n"
    "     token [lifespan=<secs>] [username=<user>]\n"
    "                              get a JSON Web Token for drover-restd (AuthAltTypes=auth/jwt).\n"
    "     top <job_list>           put specified job first in queue for user.\n"
    "     uhold <job_list>         place user hold on specified job.\n"
    "     update <SPECIFICATIONS>  update job or node configuration: JobId=<id> with\n"
    "                              TimeLimit, Name, Partition, Priority, NumNodes,\n"
    "                              Comment, Dependency, Features, StartTime, Nice or\n"
    "                              Requeue; StepId=<id> with TimeLimit; NodeName=<name>\n"
    "                              with State and Reason;\n"
    "                              PartitionName=<name> with the keys of its\n"
    "                              slurm.conf line (State, MaxTime, Nodes, Default...);\n"
    "                              ReservationName=<name> with the keys of create\n"
    "                              (Users+=<name> and Users-=<name> add and remove).\n"
    "     version                  display tool version number.\n"
    "     write batch_script <jobid> <optional filename>\n"
    "                              write the batch script to a file (slurm-<jobid>.sh;\n"
    "                              \"-\" for standard output).\n";

constexpr CommandText kText{kProg, kHelp}; // --usage prints the help, as in Slurm

struct Opts {
    bool one_liner = false, json = false, quiet = false, details = false, yaml = false;
    bool future = false;
};

// Prints what show found: as one JSON document (to_json) with --json, or that document as YAML
// with --yaml; else none_line when nothing was found (nullptr: print nothing), or each record
// as to_text writes it.
template <class Record, class ToJson, class ToText>
void print_found(const Opts &o, const std::vector<const Record *> &found, const char *none_line,
                 const ToJson &to_json, const ToText &to_text) {
    if (o.json || o.yaml) {
        write_out(json_or_yaml(to_json(found), o.yaml));
        return;
    }
    if (found.empty() && none_line) {
        write_out(none_line);
        return;
    }
    std::string out;
    for (const auto *r : found) out += to_text(*r);
    write_out(out);
}

int show_jobs(const Opts &o, std::span<const std::string> rest) {
    std::optional<JobSpec> spec;
    std::vector<uint32_t> ids;
    if (!rest.empty()) {
        std::string_view w = rest[0];
        if (istarts_with(w, "jobid=")) w.remove_prefix(6);
        spec = parse_job_spec(w);
        if (!spec) {
            write_err("slurm_load_jobs error: Invalid job id specified\n");
            return 1;
        }
        ids.push_back(spec->job_id);
    }
    net::Reply reply;
    const auto *r = load_jobs(reply, ids);
    if (!r) return 1;
    int64_t now = reply_time(r->now());
    std::vector<const proto::JobInfo *> jobs;
    if (r->jobs())
        for (const auto *j : *r->jobs())
            if (!spec || spec->matches(*j)) jobs.push_back(j);
    if (spec && jobs.empty()) {
        write_err("slurm_load_jobs error: Invalid job id specified\n");
        return 1;
    }
    // One task named ("12_3") that is still waiting in its array's record: shown as that task.
    std::optional<uint32_t> task;
    if (spec && spec->tasks.size() == 1 && spec->tasks[0].lo == spec->tasks[0].hi)
        task = spec->tasks[0].lo;
    print_found(
        o, jobs, "No jobs in the system\n", [&](const auto &v) { return jobs_json(v, now); },
        [&](const auto &j) { return show_job(j, now, o.one_liner, o.details, task); });
    return 0;
}

int show_nodes(const Opts &o, std::span<const std::string> rest) {
    std::vector<std::string> names;
    if (!rest.empty()) names = hostlist_expand(rest[0]);
    net::Reply reply;
    const auto *r = load_nodes(reply, names, "slurm_load_node error: ");
    if (!r) return 1;
    int64_t now = reply_time(r->now());
    std::vector<const proto::NodeInfo *> nodes;
    int rc = 0;
    if (names.empty()) {
        // FUTURE nodes (defined, not yet in service) only with -F, as in Slurm.
        for (const auto *n : records_of(r->nodes()))
            if (o.future || n->state() != DROVER_NODE_FUTURE) nodes.push_back(n);
    } else {
        // In the order asked for; a name the controller does not know is an error.
        for (const auto &want : names) {
            const proto::NodeInfo *found = nullptr;
            if (r->nodes())
                for (const auto *n : *r->nodes())
                    if (n->name() && n->name()->str() == want) found = n;
            if (found) {
                nodes.push_back(found);
            } else {
                write_err("Node " + want + " not found\n");
                rc = 1;
            }
        }
    }
    print_found(
        o, nodes, names.empty() ? "No nodes in the system\n" : nullptr,
        [&](const auto &v) { return nodes_json(v, now); },
        [&](const auto &n) { return show_node(n, o.one_liner); });
    return rc;
}

int show_partitions(const Opts &o, std::span<const std::string> rest) {
    net::Reply reply;
    const auto *r = load_partitions(reply, "slurm_load_partitions error: ");
    if (!r) return 1;
    int64_t now = reply_time(r->now());
    std::vector<const proto::PartitionInfo *> parts;
    if (r->partitions())
        for (const auto *p : *r->partitions())
            if (rest.empty() || (p->name() && p->name()->str() == rest[0])) parts.push_back(p);
    if (!rest.empty() && parts.empty()) {
        write_err("Partition " + rest[0] + " not found\n");
        return 1;
    }
    print_found(
        o, parts, "No partitions in the system\n",
        [&](const auto &v) { return partitions_json(v, now); },
        [&](const auto &p) { return show_partition(p, o.one_liner); });
    return 0;
}

int show_steps(const Opts &o, std::span<const std::string> rest) {
    std::optional<JobSpec> spec;
    std::vector<uint32_t> ids;
    if (!rest.empty()) {
        std::string_view w = rest[0];
        if (istarts_with(w, "stepid=")) w.remove_prefix(7);
        spec = parse_job_spec(w);
        if (!spec) {
            write_err("slurm_get_job_steps error: Invalid job id specified\n");
            return 1;
        }
        ids.push_back(spec->job_id);
    }
    flatbuffers::FlatBufferBuilder fbb(128);
    auto idv = fbb.CreateVector(ids);
    net::Reply reply;
    const auto *r = ask_ctld<proto::StepInfoResponse>(
        reply, fbb, proto::Body::StepInfoRequest, proto::CreateStepInfoRequest(fbb, idv).Union(),
        error_line("slurm_get_job_steps error: "));
    if (!r) return 1;
    std::string out;
    if (r->steps())
        for (const auto *st : *r->steps())
            if (!spec || spec->step_id == 0xfffffffeu || spec->step_id == st->step_id())
                out += show_step(*st, o.one_liner);
    if (out.empty()) {
        if (spec) {
            write_err("Job step " + spec->text + " not found\n");
            return 1;
        }
        out = "No job steps in the system\n";
    }
    write_out(out);
    return 0;
}

int show_conf() {
    flatbuffers::FlatBufferBuilder fbb;
    auto req = proto::CreateConfigRequest(fbb);
    net::Reply reply = call_ctld(fbb, proto::Body::ConfigRequest, req.Union());
    write_out(show_config(*reply.as<proto::ConfigResponse>(), now_seconds()));
    return 0;
}

// Each license slurm.conf configures (sorted by name), or the one named.
int show_licenses(const Opts &o, std::span<const std::string> rest) {
    flatbuffers::FlatBufferBuilder fbb(64);
    net::Reply reply;
    const auto *r = ask_ctld<proto::LicenseInfoResponse>(
        reply, fbb, proto::Body::LicenseInfoRequest, proto::CreateLicenseInfoRequest(fbb).Union(),
        error_line("slurm_load_licenses error: "));
    if (!r) return 1;
    if (!r->licenses() || r->licenses()->size() == 0) {
        write_out("No licenses configured in Slurm.\n");
        return 0;
    }
    std::string out;
    for (const auto *l : *r->licenses()) {
        std::string name = l->name() ? l->name()->str() : std::string();
        if (!rest.empty() && name != rest[0]) continue;
        uint32_t free = l->total() > l->used() ? l->total() - l->used() : 0;
        out += "LicenseName=" + name + (o.one_liner ? " " : "\n    ") +
               "Total=" + std::to_string(l->total()) + " Used=" + std::to_string(l->used()) +
               " Free=" + std::to_string(free) + " Reserved=0 Remote=no\n";
    }
    write_out(out);
    return 0;
}

int show(const Opts &o, std::span<const std::string> rest) {
    if (rest.empty()) {
        print_error(kProg, "too few arguments for keyword:show");
        return 1;
    }
    // "show ReservationName=maint" is "show ReservationName maint", as Slurm's scontrol reads it.
    std::vector<std::string> split_words;
    if (std::size_t eq = rest[0].find('='); eq != std::string::npos) {
        split_words = {rest[0].substr(0, eq), rest[0].substr(eq + 1)};
        split_words.insert(split_words.end(), rest.begin() + 1, rest.end());
        rest = split_words;
    }
    auto what = match_show_entity(rest[0]);
    if (!what) {
        write_err("invalid entity:" + rest[0] + " for keyword:show\n");
        return 1;
    }
    rest = rest.subspan(1);
    switch (*what) {
    case ShowWhat::job:
        return show_jobs(o, rest);
    case ShowWhat::node:
        return show_nodes(o, rest);
    case ShowWhat::partition:
        return show_partitions(o, rest);
    case ShowWhat::config:
        return show_conf();
    case ShowWhat::step:
        return show_steps(o, rest);
    case ShowWhat::licenses:
        return show_licenses(o, rest);
    case ShowWhat::federation:
        return show_federation();
    case ShowWhat::reservation:
        return show_reservations(rest, o.one_liner, o.quiet);
    case ShowWhat::hostnames:
        return show_hostnames(rest);
    case ShowWhat::hostlist:
    case ShowWhat::hostlistsorted:
        return show_hostlist(rest, *what == ShowWhat::hostlistsorted);
    }
    return 1;
}

// Sends a request answered by an OkResponse; a refusal prints "<what> error: <message>".
int simple(proto::Body type, flatbuffers::Offset<void> body, flatbuffers::FlatBufferBuilder &fbb,
           const char *what) {
    net::Reply reply;
    auto report = error_line(std::string(what) + " error: ");
    return ask_ctld<proto::OkResponse>(reply, fbb, type, body, report) ? 0 : 1;
}

// What one JobUpdateRequest asks: new field values, a hold change or an action, for a job or
// (spec set) one task of an array.
struct JobChange {
    const std::vector<std::pair<std::string, std::string>> *fields = nullptr;
    int hold = -1;
    const char *action = nullptr; // "requeue", "requeuehold", "top"
};

// Sends one JobUpdateRequest; on a refusal prints Slurm's line for the command and returns 1.
int update_one_job(uint32_t id, const std::string &spec, const JobChange &c) {
    flatbuffers::FlatBufferBuilder fbb;
    static const std::vector<std::pair<std::string, std::string>> kNone;
    auto fields = proto::key_values(fbb, c.fields ? *c.fields : kNone);
    auto action = c.action ? fbb.CreateString(c.action) : 0;
    auto job_spec = spec.empty() ? 0 : fbb.CreateString(spec);
    auto req = proto::CreateJobUpdateRequest(fbb, id, fields, c.hold, action, job_spec);
    std::string label = spec.empty() ? str_u(id) : spec;
    net::Reply reply;
    auto report = [&](const net::RpcError &e) {
        std::string action_name = c.action ? c.action : "";
        if (action_name == "top")
            write_err(std::string("slurm_top_job error: ") + e.what() + "\n");
        else if (!action_name.empty())
            write_err(std::string(e.what()) + " for job " + label + "\n");
        else
            write_err(std::string("slurm_update error: ") + e.what() + "\n");
    };
    return ask_ctld<proto::OkResponse>(reply, fbb, proto::Body::JobUpdateRequest, req.Union(),
                                       report)
               ? 0
               : 1;
}

// scontrol update SuspendExcNodes+=n1 ...: one request a word, as Slurm's scontrol sends them.
int update_power(std::span<const std::string> rest) {
    std::vector<ConfigChange> changes;
    try {
        changes = parse_power_update(rest);
    } catch (const ParseError &e) {
        print_error(kProg, std::string(e.what()) + "\nRequest aborted");
        return 1;
    }
    int rc = 0;
    for (const ConfigChange &c : changes) {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateConfigUpdateRequestDirect(fbb, c.key.c_str(), c.op.c_str(),
                                                          c.value.c_str());
        rc |= simple(proto::Body::ConfigUpdateRequest, req.Union(), fbb, "slurm_update");
    }
    return rc;
}

int update(std::span<const std::string> rest) {
    if (rest.empty()) {
        print_error(kProg, "too few arguments for keyword:update");
        return 1;
    }
    switch (update_target(rest)) {
    case UpdateWhat::job: {
        JobUpdate u = parse_job_update(rest, now_seconds());
        int rc = 0;
        JobChange c;
        c.fields = &u.fields;
        for (const auto &[id, spec] : update_targets(u.jobs)) rc |= update_one_job(id, spec, c);
        return rc;
    }
    case UpdateWhat::node: {
        NodeUpdate u;
        try {
            u = parse_node_update(rest);
        } catch (const ParseError &e) {
            // Slurm prints the reason rule bare.
            std::string msg = e.what();
            if (msg.starts_with("You must specify"))
                write_err(msg + "\n");
            else
                print_error(kProg, msg);
            return 1;
        }
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateNodeUpdateRequestDirect(
            fbb, u.names.c_str(), u.state.c_str(), u.reason.empty() ? nullptr : u.reason.c_str(),
            u.addr.c_str(), u.hostname.c_str());
        return simple(proto::Body::NodeUpdateRequest, req.Union(), fbb, "slurm_update");
    }
    case UpdateWhat::step:
        return update_step(rest);
    case UpdateWhat::reservation:
        return update_reservation(rest);
    case UpdateWhat::partition:
        return update_partition(rest);
    case UpdateWhat::power:
        return update_power(rest);
    case UpdateWhat::unknown:
        break;
    }
    print_error(kProg, "No valid entity in update command\nInput line must include \"JobId\", "
                       "\"StepId\", \"NodeName\", \"PartitionName\" or \"ReservationName\"");
    return 1;
}

int hold(std::span<const std::string> rest, int how) {
    if (rest.empty()) {
        print_error(kProg, "too few arguments for hold/release");
        return 1;
    }
    int rc = 0;
    JobChange c;
    c.hold = how;
    for (const auto &[id, spec] : update_targets(parse_hold_ids(rest)))
        rc |= update_one_job(id, spec, c);
    return rc;
}

// requeue, requeuehold, top, suspend and resume: one request per job or task named.
int job_action(std::span<const std::string> rest, const char *action) {
    std::vector<std::string> ids;
    for (const auto &w : rest) {
        // requeue's "Incomplete" changes nothing here.
        if (iequals(w, "incomplete")) continue;
        if (istarts_with(w, "state=")) { // requeuehold State=SpecialExit (or SE)
            std::string v = ascii_lower(w.substr(6));
            if (std::string_view(action) != "requeuehold" ||
                !(v.starts_with("specialexit") || v.starts_with("se"))) {
                write_err("scontrol: error: Invalid state specification " + w + "\n");
                return 1;
            }
            action = "specialexit";
            continue;
        }
        // "JobId=12" and "Job=12" name job 12, as Slurm's scontrol reads them.
        if (istarts_with(w, "jobid="))
            ids.push_back(w.substr(6));
        else if (istarts_with(w, "job="))
            ids.push_back(w.substr(4));
        else
            ids.push_back(w);
    }
    if (ids.empty()) {
        write_err(std::string("too few arguments for keyword:") + action + "\n");
        return 1;
    }
    int rc = 0;
    JobChange c;
    c.action = action;
    for (const auto &[id, spec] : update_targets(parse_hold_ids(ids)))
        rc |= update_one_job(id, spec, c);
    return rc;
}

// root or SlurmUser: their "hold" is an admin hold; anyone else's is a user hold, as in Slurm.
bool is_admin() {
    uint32_t uid = static_cast<uint32_t>(::getuid());
    return uid == 0 || user_name(uid) == cli_config().slurm_user;
}

// One line per SlurmctldHost, as Slurm prints them; with backups, the one in control says so.
int ping() {
    const Config &conf = cli_config();
    std::string out;
    bool any_up = false;
    for (std::size_t i = 0; i < conf.controllers.size(); ++i) {
        const auto &c = conf.controllers[i];
        bool up = false, in_control = false;
        try {
            flatbuffers::FlatBufferBuilder fbb;
            auto req = proto::CreateControllerPingRequest(fbb);
            net::Reply reply =
                call_host(c, fbb, proto::Body::ControllerPingRequest, req.Union(), 5000);
            const auto *p = reply.as<proto::ControllerPingResponse>();
            up = true;
            in_control = p->role() && p->role()->str() == "primary";
        } catch (const net::NetError &) {
        } catch (const net::RpcError &) {
            up = true; // it answered
        }
        any_up = any_up || up;
        out += std::string("Slurmctld(") + (i == 0 ? "primary" : "backup") + ") at " + c.name +
               " is " + (up ? "UP" : "DOWN") +
               (in_control && conf.controllers.size() > 1 ? " (in control)" : "") + "\n";
    }
    write_out(out);
    return any_up ? 0 : 1;
}

// scontrol takeover [INDEX]: the backup at INDEX (default 1) asks the controller in control to
// hand over, or takes control at once when none is.
int takeover(std::span<const std::string> args) {
    const Config &conf = cli_config();
    std::size_t index = 1;
    if (!args.empty()) {
        char *end = nullptr;
        unsigned long v = std::strtoul(args[0].c_str(), &end, 10);
        if (args[0].empty() || *end) {
            write_err("Invalid takeover index: " + args[0] + "\n");
            return 1;
        }
        index = v;
    }
    if (index >= conf.controllers.size()) {
        write_err("slurm_takeover error: no backup controller " + std::to_string(index) + " in " +
                  conf.path + "\n");
        return 1;
    }
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateControlRequest(fbb);
        call_host(conf.controllers[index], fbb, proto::Body::ControlRequest, req.Union(), 10000)
            .as<proto::OkResponse>();
    } catch (const std::exception &e) {
        write_err(std::string("slurm_takeover error: ") + e.what() + "\n");
        return 1;
    }
    return 0;
}

// delete's entity is its first word's ("PartitionName=x", "partition x"), as in Slurm's scontrol.
bool deletes_partition(std::span<const std::string> rest) {
    std::string_view tag = std::string_view(rest[0]).substr(0, rest[0].find('='));
    return abbreviates(tag, "PartitionName", 3);
}

int execute(const Opts &o, std::span<const std::string> words) {
    auto cmd = match_scontrol_command(words[0]);
    if (!cmd) {
        write_err("invalid keyword: " + words[0] + "\n");
        return 1;
    }
    auto rest = words.subspan(1);
    switch (*cmd) {
    case ScontrolCmd::show:
        return show(o, rest);
    case ScontrolCmd::update:
        return update(rest);
    case ScontrolCmd::hold:
        return hold(rest, is_admin() ? 2 : 1);
    case ScontrolCmd::uhold:
        return hold(rest, 1);
    case ScontrolCmd::release:
        return hold(rest, 0);
    case ScontrolCmd::requeue:
        return job_action(rest, "requeue");
    case ScontrolCmd::requeuehold:
        return job_action(rest, "requeuehold");
    case ScontrolCmd::top:
        return job_action(rest, "top");
    case ScontrolCmd::suspend:
        return job_action(rest, "suspend");
    case ScontrolCmd::resume:
        return job_action(rest, "resume");
    case ScontrolCmd::listpids:
        return list_pids(rest);
    case ScontrolCmd::reboot:
        return reboot_nodes(rest);
    case ScontrolCmd::cancel_reboot:
        return cancel_reboot(rest);
    case ScontrolCmd::reconfigure: {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateReconfigureRequest(fbb);
        return simple(proto::Body::ReconfigureRequest, req.Union(), fbb, "slurm_reconfigure");
    }
    case ScontrolCmd::shutdown: {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateShutdownRequest(fbb);
        return simple(proto::Body::ShutdownRequest, req.Union(), fbb, "slurm_shutdown");
    }
    case ScontrolCmd::ping:
        return ping();
    case ScontrolCmd::takeover:
        return takeover(rest);
    case ScontrolCmd::token:
        return fetch_token(rest);
    case ScontrolCmd::version:
        write_out(version_line());
        return 0;
    case ScontrolCmd::help:
        write_out(kHelp);
        return 0;
    case ScontrolCmd::quit:
        return 0;
    case ScontrolCmd::create:
    case ScontrolCmd::remove:
        if (rest.empty()) {
            write_err("too few arguments for " + words[0] + " keyword\n");
            return 1;
        }
        if (*cmd == ScontrolCmd::create)
            return create_target(rest) == CreateWhat::partition ? create_partition(rest)
                                                                : create_reservation(rest);
        return deletes_partition(rest) ? delete_partition(rest) : delete_reservation(rest);
    case ScontrolCmd::write:
        if (rest.empty() || !istarts_with("batch_script", to_lower(rest[0])) ||
            rest[0].size() < 3) {
            write_err("invalid write option: " + (rest.empty() ? "" : rest[0]) + "\n");
            return 1;
        }
        return write_batch_script(rest.subspan(1), o.quiet);
    }
    return 1;
}

// Splits an interactive line into words (quotes group, and are removed).
std::vector<std::string> words_of(std::string_view line) {
    std::vector<std::string> out;
    std::string cur;
    bool in_word = false;
    char quote = 0;
    for (char c : line) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                cur.push_back(c);
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) out.push_back(std::move(cur));
            cur.clear();
            in_word = false;
        } else {
            cur.push_back(c);
            in_word = true;
        }
    }
    if (in_word) out.push_back(std::move(cur));
    return out;
}

int interactive(const Opts &o) {
    char buf[8192];
    int rc = 0;
    bool tty = ::isatty(0);
    while (true) {
        if (tty) {
            std::fputs("scontrol: ", stdout);
            std::fflush(stdout);
        }
        if (!std::fgets(buf, sizeof buf, stdin)) break;
        auto words = words_of(buf);
        if (words.empty()) continue;
        auto cmd = match_scontrol_command(words[0]);
        if (cmd && *cmd == ScontrolCmd::quit) break;
        rc = guarded(kProg, [&] { return execute(o, words); });
    }
    return rc;
}

// The job a command is about (hold, release, requeue, suspend, update JobId=, show job, ...): its
// first id, or 0.
uint32_t job_named(const std::vector<std::string> &words) {
    auto cmd = match_scontrol_command(words[0]);
    if (!cmd || words.size() < 2) return 0;
    std::string word;
    switch (*cmd) {
    case ScontrolCmd::hold:
    case ScontrolCmd::uhold:
    case ScontrolCmd::release:
    case ScontrolCmd::requeue:
    case ScontrolCmd::requeuehold:
    case ScontrolCmd::top:
    case ScontrolCmd::suspend:
    case ScontrolCmd::resume:
        word = words[1];
        break;
    case ScontrolCmd::write: // write batch_script ID [FILE]
        if (words.size() > 2) word = words[2];
        break;
    case ScontrolCmd::show:
        if (words.size() > 2 && match_show_entity(words[1]) == ShowWhat::job) word = words[2];
        break;
    case ScontrolCmd::update:
        for (const auto &w : words)
            if (istarts_with(w, "jobid=") || istarts_with(w, "job="))
                word = w.substr(w.find('=') + 1);
        break;
    default:
        break;
    }
    return std::strtoul(word.c_str(), nullptr, 10) & 0xffffffffu;
}

int run(const ScontrolArgs &a) {
    Opts o{a.one_liner, a.json, a.quiet, a.details, a.yaml, a.future};
    if (a.words.empty()) return interactive(o);
    // A job another cluster of the federation gave is that cluster's (without -M), as Slurm
    // routes these commands to the job's origin.
    if (!a.on_clusters)
        if (std::string origin = origin_cluster(job_named(a.words)); !origin.empty())
            use_cluster(origin);
    return execute(o, a.words);
}

} // namespace

int scontrol_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_scontrol_args, run);
}

std::string_view scontrol_help() {
    return kHelp;
}

} // namespace drover::cli
