// sshare_fields.hpp - sshare's table, from a plain model of the controller's answer: Slurm 23.11's
// fields (names, widths and the order -o abbreviations are tried in), the default and long
// formats, and each association's line as Slurm's print_fields writes it. The Account column is
// indented one space under the line of its parent; a user's line shows its account one space
// deeper than the account's own. NormShares, NormUsage, EffectvUsage, FairShare and LevelFS have
// six decimals ("%f"; "inf" for a LevelFS without usage; "%e" when too wide), RawShares and
// RawUsage are integers ("parent" for FairShare=parent), and unset values are blank; columns are
// fixed (strings cut with '+', numbers never cut) or '|'-separated (-p, -P).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/field_layout.hpp"

namespace drover::cli {

// ShareRow.shares_raw for FairShare=parent: RawShares shows "parent" and LevelFS is blank.
inline constexpr uint32_t kSharesParent = 0xffffffff;
// ShareRow.shares_raw that shows blank (Slurm's NO_VAL; the root's RawShares is always blank).
inline constexpr uint32_t kSharesUnset = 0xfffffffe;

// One association as the controller sends it (ShareRow), in tree order.
struct ShareLine {
    std::string cluster, account, user, partition; // user empty: an account's line
    uint32_t depth = 0;                            // 0: the root
    uint32_t shares_raw = 0;                       // FairShare=, or kSharesParent
    double shares_norm = 0;                        // NormShares
    double usage_raw = 0;                          // RawUsage: decayed billing-seconds
    double usage_norm = 0;                         // NormUsage
    double usage_eff = 0;                          // EffectvUsage
    double fairshare = 0;                          // FairShare: the factor
    double level_fs = 0;                           // LevelFS; infinity without usage
    std::string grp_tres_mins, tres_run_mins;      // "cpu=100,mem=2000"
};

// The controller's answer.
struct ShareTable {
    bool fair_tree = true; // Fair Tree (accounts' FairShare blank, LevelFS meaningful) or classic
    // A priority plugin computes the factors. Without one (priority/basic) Slurm's associations
    // keep their initial values: NormShares and NormUsage unset (blank), FairShare and LevelFS 0.
    bool factors = true;
    std::vector<ShareLine> lines;
};

enum class ShareColumn {
    account,
    cluster,
    eff_usage,
    fairshare,
    grp_tres_mins,
    grp_tres_raw,
    id,
    level_fs,
    norm_shares,
    norm_usage,
    partition,
    raw_shares,
    raw_usage,
    tres_run_mins,
    user,
};

struct ShareField {
    ShareColumn column;
    std::string header;
    int width; // negative: left-justified
};

// The format sshare uses without -o, as Slurm's items: A,User[,P],RawShares,NormShares,RawUsage,
// [NormUsage,]Eff,Fairshare[,LevelFS][,GrpTRESMins,TRESRunMins]: P with -m (partitions), the
// long ones with -l (long_format), LevelFS only with Fair Tree.
std::vector<std::string> share_default_format(bool fair_tree, bool long_format, bool partitions);

// Resolves format items ("user", "rawu%15", "A"): each names the first field, in Slurm's order,
// whose name it is a case-insensitive prefix of; "%N" after it sets the width unless N is 0 (a
// negative one left-justifies). Throws drover::ParseError with Slurm's `Invalid field requested:
// "x"` for an item that names no field, and says so for ID and GrpTRESRaw, which Drover does
// not report.
std::vector<ShareField> parse_share_format(const std::vector<std::string> &items);

// sshare -e: the field names, each 17 wide, four to a line.
std::string share_help_format();

// A double as print_fields prints it: "%f" in the parsable layouts; in the fixed one, "%f" in
// |width| (right-justified, left for a negative width), or "%e" with the precision cut to fit
// when "%f" is wider. Slurm's unset values (NO_VAL, INFINITE and their 64-bit forms) and NaN are
// blank.
std::string share_double(double value, int width, FieldLayout layout);

// How the table is printed.
struct ShareView {
    FieldLayout layout = FieldLayout::fixed;
    bool header = true;      // false with -n
    bool users_only = false; // -U: account lines are left out (and so indent nothing)
};

// The header (with its dashes in the fixed layout) and a line for each association.
std::string render_shares(const ShareTable &table, const std::vector<ShareField> &fields,
                          const ShareView &view);

} // namespace drover::cli
