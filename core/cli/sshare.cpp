// sshare.cpp - the fair-share tree (ShareRequest): each association's shares, usage and
// fair-share factor, in Slurm's sshare layout.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "cli/command_docs.hpp"
#include "cli/command_main.hpp"
#include "cli/load_records.hpp"
#include "cli/sshare_args.hpp"
#include "cli/sshare_fields.hpp"
#include "cli/users.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sshare";

constexpr const char *kHelp =
    "Usage: sshare [OPTION]\n"
    "  Valid OPTIONs are:\n"
    "    -a, --all              every user's associations, not only yours\n"
    "    -A, --accounts=LIST    these accounts only (comma separated)\n"
    "    -e, --helpformat       list the fields --format takes\n"
    "    -l, --long             add NormUsage, LevelFS (Fair Tree), GrpTRESMins, TRESRunMins\n"
    "    -m, --partition        add the Partition column\n"
    "    -M, --clusters=NAMES   accepted; the controller reports its own cluster\n"
    "    -n, -h, --noheader     no header lines\n"
    "    -o, --format=LIST      these fields (comma separated, each NAME or NAME%WIDTH)\n"
    "    -p, --parsable         '|' after every field\n"
    "    -P, --parsable2        '|' between fields\n"
    "    -u, --users=LIST       these users (names or uids, comma separated; -1: all)\n"
    "    -U, --Users            the users' lines only, without their accounts\n"
    "    -v, --verbose          say which users and accounts are asked for\n"
    "    -V, --version          print the version\n"
    "        --help, --usage    print this help\n";

constexpr CommandText kText{kProg, kHelp, nullptr};

// The -u items with each uid replaced by its user's name, each name once, as Slurm names them;
// false (after Slurm's "Invalid user id: N") when a uid has no user.
bool name_uids(std::vector<std::string> &users) {
    std::vector<std::string> named;
    for (const auto &u : users) {
        std::string name = u;
        if (u[0] >= '0' && u[0] <= '9') {
            const auto uid = static_cast<uint32_t>(std::strtoul(u.c_str(), nullptr, 10));
            name = user_name(uid);
            if (name == str_u(uid)) {
                write_err("Invalid user id: " + name + "\n");
                return false;
            }
        }
        auto same = [&](const std::string &have) { return iequals(have, name); };
        if (std::none_of(named.begin(), named.end(), same)) named.push_back(std::move(name));
    }
    users = std::move(named);
    return true;
}

ShareLine line_of(const proto::ShareRow &r) {
    ShareLine l;
    l.cluster = proto::str(r.cluster());
    l.account = proto::str(r.account());
    l.user = proto::str(r.user());
    l.partition = proto::str(r.partition());
    l.depth = r.depth();
    l.shares_raw = r.shares_raw();
    l.shares_norm = r.shares_norm();
    l.usage_raw = r.usage_raw();
    l.usage_norm = r.usage_norm();
    l.usage_eff = r.usage_eff();
    l.fairshare = r.fairshare();
    l.level_fs = r.level_fs();
    l.grp_tres_mins = proto::str(r.grp_tres_mins());
    l.tres_run_mins = proto::str(r.tres_run_mins());
    return l;
}

ShareTable table_of(const proto::ShareResponse &r) {
    ShareTable t;
    const std::string type = proto::str(r.priority_type());
    t.factors = !type.empty() && type != "priority/basic";
    t.fair_tree = r.fair_tree();
    for (const auto *row : records_of(r.rows())) t.lines.push_back(line_of(*row));
    return t;
}

int run(const SshareArgs &a) {
    if (a.getopt_error) {
        write_err(std::string("getopt error, returned ") + a.getopt_error + "\n");
        return 1;
    }
    if (a.help_format) {
        write_out(share_help_format());
        return 0;
    }
    std::vector<std::string> users = a.users;
    if (!name_uids(users)) return 1;
    if (a.verbose) write_err(sshare_verbose_text(a, users, user_name(::getuid())));
    flatbuffers::FlatBufferBuilder fbb;
    auto accounts = a.accounts.empty() ? 0 : fbb.CreateVectorOfStrings(a.accounts);
    auto names = users.empty() ? 0 : fbb.CreateVectorOfStrings(users);
    auto req = proto::CreateShareRequest(fbb, accounts, names, a.all_users);
    net::Reply reply;
    const auto *r =
        ask_ctld<proto::ShareResponse>(reply, fbb, proto::Body::ShareRequest, req.Union(),
                                       error_line("Couldn't get shares from controller: "));
    if (!r) return 1;
    const ShareTable table = table_of(*r);
    const auto fields = parse_share_format(
        a.format.empty() ? share_default_format(table.fair_tree, a.long_format, a.partitions)
                         : a.format);
    write_out(render_shares(table, fields, {a.layout, !a.noheader, a.users_only}));
    return 0;
}

} // namespace

int sshare_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_sshare_args, run);
}

std::string_view sshare_help() {
    return kHelp;
}

} // namespace drover::cli
