// sacctmgr.cpp - clusters, accounts, users, associations and QOS through the controller
// (AcctAdminRequest): show prints the rows it sends back; add, modify and delete print what would
// change and, unless -i, ask before committing, as Slurm's sacctmgr does. show event lists node
// events from the accounting store (AcctEventQueryRequest).
#include <poll.h>
#include <unistd.h>

#include "cli/command_docs.hpp"
#include "cli/command_main.hpp"
#include "cli/sacctmgr_args.hpp"
#include "cli/sacctmgr_events.hpp"
#include "cli/sacctmgr_fields.hpp"
#include "proto/key_values.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sacctmgr";

constexpr const char *kHelp =
    "sacctmgr [<OPTION>] [<COMMAND>]\n"
    "    Valid <OPTION> values are:\n"
    "     -h or --help: equivalent to \"help\" command\n"
    "     -i or --immediate: commit changes immediately without asking\n"
    "     -n or --noheader: no header will be added to the beginning of output\n"
    "     -p or --parsable: output will be '|' delimited with a '|' at the end\n"
    "     -P or --parsable2: output will be '|' delimited without a '|' at the end\n"
    "     -Q or --quiet: equivalent to \"quiet\" command\n"
    "     -v or --verbose: equivalent to \"verbose\" command\n"
    "     -V or --version: equivalent to \"version\" command\n"
    "\n"
    "  Valid <COMMAND> values are:\n"
    "     add <ENTITY> <SPECS>     add entity (create is a synonym)\n"
    "     delete <ENTITY> where <SPECS>  delete the specified entity(s) (remove)\n"
    "     list <ENTITY> [<SPECS>]  display info of identified entity (show, view)\n"
    "     modify <ENTITY> where <SPECS> set <SPECS>  modify entity (update)\n"
    "\n"
    "  <ENTITY> may be \"account\", \"association\", \"cluster\", \"event\", \"federation\",\n"
    "  \"qos\" or \"user\".\n"
    "\n"
    "  list account  - Descriptions=, Format=, Names=, Organizations=\n"
    "  add account   - Cluster=, Description=, Name=, Organization=, Parent=\n"
    "  modify account - (set options) Description=, Organization=, Parent=\n"
    "                   (where options) Names=, Organizations=\n"
    "  delete account - Cluster=, Name=\n"
    "  list cluster  - Format=, Names=, WithFed\n"
    "  add cluster   - Name=\n"
    "  modify cluster - (set options) Federation=, Features=, FedState=\n"
    "                   (where options) Names=\n"
    "  delete cluster - Name=\n"
    "  list federation - Format=, Names=, Tree\n"
    "  add federation - Clusters=, Name=\n"
    "  modify federation - (set options) Clusters= (Clusters+= and Clusters-= add and take)\n"
    "                   (where options) Names=\n"
    "  delete federation - Name=\n"
    "  list user     - AdminLevel=, DefaultAccount=, Format=, Names=\n"
    "  add user      - Account=, AdminLevel=, Cluster=, DefaultAccount=, Name=, Partition=\n"
    "  modify user   - (set options) AdminLevel=, DefaultAccount=\n"
    "                  (where options) Account=, DefaultAccount=, Names=\n"
    "  delete user   - Account=, Cluster=, Name=, Partition=\n"
    "  list assoc    - Accounts=, Clusters=, Format=, Partitions=, Users=\n"
    "  delete assoc  - Accounts=, Clusters=, Partitions=, Users=\n"
    "  add and modify of account and user also set DefaultQOS=, Fairshare=, Priority=,\n"
    "                  QOS= (QOS+= and QOS-= add to and take from the list) and the limits\n"
    "                  GrpJobs=, GrpSubmitJobs=, GrpTRES=, GrpTRESMins=, GrpTRESRunMins=,\n"
    "                  GrpWall=, MaxJobs=, MaxSubmitJobs=, MaxTRES=, MaxTRESMins=,\n"
    "                  MaxTRESPerNode=, MaxWall=\n"
    "  list qos      - Descriptions=, Format=, Names=\n"
    "  add qos       - Description=, Flags=, GraceTime=, GrpJobs=, GrpSubmitJobs=, GrpTRES=,\n"
    "                  GrpTRESMins=, GrpTRESRunMins=, GrpWall=, MaxJobsPerAccount=,\n"
    "                  MaxJobsPerUser=, MaxSubmitJobsPerAccount=, MaxSubmitJobsPerUser=,\n"
    "                  MaxTRES=, MaxTRESMins=, MaxTRESPerAccount=, MaxTRESPerNode=,\n"
    "                  MaxTRESPerUser=, MaxWall=, MinTRES=, Name=, Preempt=, PreemptMode=,\n"
    "                  PreemptExemptTime=, Priority=, UsageFactor=, UsageThreshold=\n"
    "  modify qos    - (set options) those of add qos but Name=; Flags+=, Flags-=,\n"
    "                  Preempt+= and Preempt-= add to and take from the list\n"
    "                  (where options) Descriptions=, Names=\n"
    "  delete qos    - Descriptions=, Names=\n"
    "  list events   - All_Clusters, All_Time, Clusters=, CondFlags=Open, End=,\n"
    "                  Event=, Format=, Nodes=, Reason=, Start=, States=, User=\n";

constexpr CommandText kText{kProg, kHelp, nullptr};

// Prints the controller's refusal. Slurm's own lines (" Need name of account to add.", " Problem
// with query.") print as they are.
void report_refusal(const net::RpcError &e) {
    std::string what = e.what();
    write_err(what.starts_with(' ') ? what + "\n" : std::string(kProg) + ": error: " + what + "\n");
}

// Sends the request; nullptr after printing the controller's refusal.
const proto::AcctAdminResponse *ask(net::Reply &reply, const SacctmgrArgs &a, bool commit) {
    flatbuffers::FlatBufferBuilder fbb;
    auto verb = fbb.CreateString(a.verb), entity = fbb.CreateString(a.entity);
    auto set = proto::key_values(fbb, a.set), where = proto::key_values(fbb, a.where);
    auto req = proto::CreateAcctAdminRequest(fbb, verb, entity, set, where, commit);
    return ask_ctld<proto::AcctAdminResponse>(reply, fbb, proto::Body::AcctAdminRequest,
                                              req.Union(), report_refusal);
}

// Slurm's question: y commits; n, Enter, end of input or 30 s of silence do not.
bool confirmed() {
    write_out("Would you like to commit changes? (You have 30 seconds to decide)\n");
    for (;;) {
        write_out("(N/y): ");
        pollfd p{0, POLLIN, 0};
        if (::poll(&p, 1, 30000) <= 0) {
            write_out("timeout\n");
            return false;
        }
        char c = 0;
        if (::read(0, &c, 1) != 1) return false;
        write_out("\n");
        if (c == 'y' || c == 'Y') return true;
        if (c == 'n' || c == 'N' || c == '\n') return false;
        write_out("Y or N please\n");
    }
}

FieldLayout layout_of(const SacctmgrArgs &a) {
    return a.parsable2  ? FieldLayout::parsable2
           : a.parsable ? FieldLayout::parsable
                        : FieldLayout::fixed;
}

// show event: the controller answers from the store what overlaps the window for the nodes and
// clusters; the other conditions are applied here.
int show_events(const SacctmgrArgs &a) {
    const int64_t now = now_seconds();
    EventConditions c = parse_event_conditions(a.conditions, now);
    auto fields = parse_sacctmgr_format(c.format.empty() ? event_default_format(c) : c.format);
    flatbuffers::FlatBufferBuilder fbb;
    auto clusters = fbb.CreateVectorOfStrings(c.clusters);
    auto nodes = fbb.CreateVectorOfStrings(c.nodes);
    auto req =
        proto::CreateAcctEventQueryRequest(fbb, clusters, c.all_clusters, nodes, c.start, c.end);
    net::Reply reply;
    const auto *r = ask_ctld<proto::AcctEventQueryResponse>(
        reply, fbb, proto::Body::AcctEventQueryRequest, req.Union(), report_refusal);
    if (!r) return 1;
    std::vector<SacctmgrRow> rows;
    if (r->events())
        for (const auto *ev : *r->events())
            if (event_matches(c, *ev)) rows.push_back(event_row(*ev, now));
    write_out(render_sacctmgr(fields, rows, layout_of(a), !a.noheader));
    return 0;
}

// The entity's columns; show cluster withfed adds the federation's, as Slurm does.
std::vector<std::string> default_format(const SacctmgrArgs &a) {
    auto out = sacctmgr_default_format(a.entity);
    if (a.entity == "cluster" && a.withfed)
        for (const char *f : {"Federation", "ID%2", "Features", "FedState"}) out.push_back(f);
    return out;
}

int run(const SacctmgrArgs &a) {
    net::Reply reply;
    if (a.entity == "event") return show_events(a);
    if (a.verb == "show") {
        auto fields = parse_sacctmgr_format(a.format.empty() ? default_format(a) : a.format);
        sacctmgr_entity_keys(a.entity, fields);
        const auto *r = ask(reply, a, false);
        if (!r) return 1;
        std::vector<SacctmgrRow> rows;
        if (r->rows())
            for (const auto *row : *r->rows()) {
                SacctmgrRow out;
                if (row->fields())
                    for (const auto *kv : *row->fields())
                        out.emplace_back(kv->key() ? kv->key()->str() : "",
                                         kv->value() ? kv->value()->str() : "");
                rows.push_back(std::move(out));
            }
        write_out(render_sacctmgr(fields, rows, layout_of(a), !a.noheader));
        return 0;
    }
    const auto *r = ask(reply, a, a.immediate);
    if (!r) return 1;
    if (!a.quiet && r->message()) write_out(r->message()->string_view());
    if (!r->changed()) return 1; // " Nothing new added." and the like
    if (a.immediate) return 0;
    if (!confirmed()) {
        write_out(" Changes Discarded\n");
        return 0;
    }
    net::Reply again;
    return ask(again, a, true) ? 0 : 1;
}

SacctmgrArgs parse(std::span<const std::string> args) {
    return parse_sacctmgr_args(args);
}

} // namespace

int sacctmgr_main(std::span<const std::string> args) {
    return command_main(kText, args, parse, run);
}

std::string_view sacctmgr_help() {
    return kHelp;
}

} // namespace drover::cli
