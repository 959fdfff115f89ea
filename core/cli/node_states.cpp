// node_states.cpp - node base states plus flags, in sinfo's and scontrol's words.
#include "cli/node_states.hpp"

#include <drover/views.h>

#include <utility>

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/node_shown_flags.hpp"

namespace drover::cli {

namespace {

bool has(uint32_t flags, uint32_t f) {
    return (flags & f) != 0;
}

bool draining(uint32_t state, uint32_t flags) {
    return has(flags, DROVER_NODE_FLAG_COMPLETING) || state == DROVER_NODE_ALLOCATED ||
           state == DROVER_NODE_MIXED;
}

// A node to be rebooted that runs no job shows as REBOOT (BOOT), whatever else it is.
bool shown_as_reboot(uint32_t state, uint32_t flags) {
    return has(flags, DROVER_NODE_FLAG_REBOOT_REQUESTED | DROVER_NODE_FLAG_REBOOT_ISSUED) &&
           state != DROVER_NODE_ALLOCATED && state != DROVER_NODE_MIXED;
}

// Slurm shows one suffix: the first that applies in this order.
const char *suffix(uint32_t flags) {
    if (has(flags, kNodeShownMaint)) return "$";
    if (has(flags, DROVER_NODE_FLAG_REBOOT_ISSUED)) return "^";
    if (has(flags, DROVER_NODE_FLAG_REBOOT_REQUESTED)) return "@";
    if (has(flags, DROVER_NODE_FLAG_POWERING_UP)) return "#";
    if (has(flags, DROVER_NODE_FLAG_POWERING_DOWN)) return "%";
    if (has(flags, DROVER_NODE_FLAG_POWERED_DOWN)) return "~";
    if (has(flags, DROVER_NODE_FLAG_POWER_DOWN)) return "!";
    if (has(flags, DROVER_NODE_FLAG_NOT_RESPONDING)) return "*";
    return "";
}

// {compact, long} names of what the node shows, before the suffix.
struct Names {
    const char *compact;
    const char *long_name;
};

Names names(uint32_t state, uint32_t flags) {
    if (shown_as_reboot(state, flags)) return {"BOOT", "REBOOT"};
    if (has(flags, DROVER_NODE_FLAG_DRAIN))
        return draining(state, flags) ? Names{"DRNG", "DRAINING"} : Names{"DRAIN", "DRAINED"};
    switch (state) {
    case DROVER_NODE_DOWN:
        return {"DOWN", "DOWN"};
    case DROVER_NODE_FUTURE:
        return {"FUTR", "FUTURE"};
    case DROVER_NODE_UNKNOWN:
        return {"UNK", "UNKNOWN"};
    default:
        break;
    }
    if (has(flags, DROVER_NODE_FLAG_COMPLETING)) return {"COMP", "COMPLETING"};
    switch (state) {
    case DROVER_NODE_IDLE: // in a reservation: Slurm's RESV, unless it is a MAINT one ("idle$")
        if (has(flags, kNodeShownReserved) && !has(flags, kNodeShownMaint))
            return {"RESV", "RESERVED"};
        return {"IDLE", "IDLE"};
    case DROVER_NODE_ALLOCATED:
        return {"ALLOC", "ALLOCATED"};
    case DROVER_NODE_MIXED:
        return {"MIX", "MIXED"};
    default:
        return {"UNK", "UNKNOWN"};
    }
}

const char *base_name(uint32_t state) {
    switch (state) {
    case DROVER_NODE_DOWN:
        return "DOWN";
    case DROVER_NODE_IDLE:
        return "IDLE";
    case DROVER_NODE_ALLOCATED:
        return "ALLOCATED";
    case DROVER_NODE_MIXED:
        return "MIXED";
    case DROVER_NODE_FUTURE:
        return "FUTURE";
    default:
        return "UNKNOWN";
    }
}

struct FlagName {
    uint32_t flag;
    const char *name;
};
constexpr FlagName kFlags[] = {
    {DROVER_NODE_FLAG_CLOUD, "CLOUD"},
    {DROVER_NODE_FLAG_COMPLETING, "COMPLETING"},
    {DROVER_NODE_FLAG_DRAIN, "DRAIN"},
    {kNodeShownMaint, "MAINT"},
    {DROVER_NODE_FLAG_NOT_RESPONDING, "NOT_RESPONDING"},
    {DROVER_NODE_FLAG_POWER_DOWN, "POWER_DOWN"},
    {DROVER_NODE_FLAG_POWERED_DOWN, "POWERED_DOWN"},
    {DROVER_NODE_FLAG_POWERING_DOWN, "POWERING_DOWN"},
    {DROVER_NODE_FLAG_POWERING_UP, "POWERING_UP"},
    {DROVER_NODE_FLAG_REBOOT_ISSUED, "REBOOT_ISSUED"},
    {DROVER_NODE_FLAG_REBOOT_REQUESTED, "REBOOT_REQUESTED"},
    {kNodeShownReserved, "RESERVED"},
};

// Slurm's base state numbers, for ordering (UNKNOWN 0, DOWN 1, IDLE 2, ALLOCATED 3, MIXED 5,
// FUTURE 6).
int slurm_base_number(uint32_t state) {
    switch (state) {
    case DROVER_NODE_DOWN:
        return 1;
    case DROVER_NODE_IDLE:
        return 2;
    case DROVER_NODE_ALLOCATED:
        return 3;
    case DROVER_NODE_MIXED:
        return 5;
    case DROVER_NODE_FUTURE:
        return 6;
    default:
        return 0;
    }
}

} // namespace

namespace {

// REBOOT's own suffix: "^" once issued, else "*" when not responding.
const char *shown_suffix(uint32_t state, uint32_t flags) {
    if (!shown_as_reboot(state, flags)) return suffix(flags);
    if (has(flags, DROVER_NODE_FLAG_REBOOT_ISSUED)) return "^";
    return has(flags, DROVER_NODE_FLAG_NOT_RESPONDING) ? "*" : "";
}

} // namespace

std::string node_state_compact(uint32_t state, uint32_t flags) {
    return std::string(names(state, flags).compact) + shown_suffix(state, flags);
}

std::string node_state_long(uint32_t state, uint32_t flags) {
    return std::string(names(state, flags).long_name) + shown_suffix(state, flags);
}

std::string node_state_complete(uint32_t state, uint32_t flags) {
    std::string out = base_name(state);
    for (const auto &f : kFlags)
        if (has(flags, f.flag)) out.append("+").append(f.name);
    return out;
}

uint32_t node_state_slurm_raw(uint32_t state, uint32_t flags) {
    // Slurm's NODE_STATE_* flag bits for the flags Drover has.
    static constexpr std::pair<uint32_t, uint32_t> kSlurmBits[] = {
        {DROVER_NODE_FLAG_CLOUD, 0x80},
        {DROVER_NODE_FLAG_DRAIN, 0x200},
        {DROVER_NODE_FLAG_COMPLETING, 0x400},
        {DROVER_NODE_FLAG_NOT_RESPONDING, 0x800},
        {DROVER_NODE_FLAG_POWERED_DOWN, 0x1000},
        {DROVER_NODE_FLAG_POWERING_UP, 0x4000},
        {DROVER_NODE_FLAG_REBOOT_REQUESTED, 0x10000},
        {DROVER_NODE_FLAG_REBOOT_ISSUED, 0x100000},
        {DROVER_NODE_FLAG_POWERING_DOWN, 0x40000},
        {DROVER_NODE_FLAG_POWER_DOWN, 0x800000},
    };
    uint32_t raw = static_cast<uint32_t>(slurm_base_number(state));
    for (const auto &[ours, slurm] : kSlurmBits)
        if (has(flags, ours)) raw |= slurm;
    return raw;
}

int node_state_rank(uint32_t state, uint32_t flags) {
    // Flags sort above every base state, as they do in Slurm's state word.
    return static_cast<int>((flags & 0xffffu) << 4) + slurm_base_number(state);
}

bool node_is_unavailable(uint32_t state, uint32_t flags) {
    return state == DROVER_NODE_DOWN || has(flags, DROVER_NODE_FLAG_DRAIN);
}

bool NodeStateMatch::matches(uint32_t state, uint32_t flags) const {
    const std::string &n = name;
    bool drain = has(flags, DROVER_NODE_FLAG_DRAIN);
    // Base-state names match what the node shows: a drained idle node is "drain", not "idle".
    Names shown = names(state, flags);
    auto shows = [&](const char *compact) { return std::string_view(shown.compact) == compact; };
    if (n == "ALLOC" || n == "ALLOCATED") return shows("ALLOC");
    if (n == "MIX" || n == "MIXED") return shows("MIX");
    if (n == "IDLE") return shows("IDLE");
    if (n == "RESV" || n == "RESERVED") return has(flags, kNodeShownReserved);
    if (n == "MAINT") return has(flags, kNodeShownMaint);
    if (n == "DOWN") return shows("DOWN");
    if (n == "FUTURE" || n == "FUTR") return shows("FUTR");
    if (n == "UNK" || n == "UNKNOWN") return shows("UNK");
    if (n == "DRAIN") return drain;
    if (n == "DRAINED") return drain && !draining(state, flags);
    if (n == "DRAINING" || n == "DRNG") return drain && draining(state, flags);
    if (n == "COMP" || n == "COMPLETING") return has(flags, DROVER_NODE_FLAG_COMPLETING);
    if (n == "CLOUD") return has(flags, DROVER_NODE_FLAG_CLOUD);
    if (n == "NO_RESPOND" || n == "NOT_RESPONDING")
        return has(flags, DROVER_NODE_FLAG_NOT_RESPONDING);
    if (n == "POWER_DOWN") return has(flags, DROVER_NODE_FLAG_POWER_DOWN);
    if (n == "POWERED_DOWN") return has(flags, DROVER_NODE_FLAG_POWERED_DOWN);
    if (n == "POWERING_DOWN") return has(flags, DROVER_NODE_FLAG_POWERING_DOWN);
    if (n == "POWERING_UP" || n == "POWER_UP") return has(flags, DROVER_NODE_FLAG_POWERING_UP);
    if (n == "REBOOT_REQUESTED") return has(flags, DROVER_NODE_FLAG_REBOOT_REQUESTED);
    if (n == "REBOOT_ISSUED") return has(flags, DROVER_NODE_FLAG_REBOOT_ISSUED);
    return false;
}

std::vector<NodeStateMatch> parse_node_state_list(std::string_view list) {
    static constexpr const char *kKnown[] = {"ALLOC",
                                             "ALLOCATED",
                                             "MIX",
                                             "MIXED",
                                             "IDLE",
                                             "DOWN",
                                             "FUTURE",
                                             "FUTR",
                                             "UNK",
                                             "UNKNOWN",
                                             "DRAIN",
                                             "DRAINED",
                                             "DRAINING",
                                             "DRNG",
                                             "COMP",
                                             "COMPLETING",
                                             "CLOUD",
                                             "NO_RESPOND",
                                             "NOT_RESPONDING",
                                             "POWER_DOWN",
                                             "POWERED_DOWN",
                                             "POWERING_DOWN",
                                             "POWERING_UP",
                                             "POWER_UP",
                                             "RESV",
                                             "RESERVED",
                                             "MAINT",
                                             "REBOOT_REQUESTED",
                                             "REBOOT_ISSUED"};
    std::vector<NodeStateMatch> out;
    for (const auto &item : split(list, ',')) {
        std::string up = to_upper(item);
        bool ok = false;
        for (const char *k : kKnown)
            if (up == k) ok = true;
        if (!ok) throw ParseError("Bad node state: " + item);
        out.push_back({up});
    }
    return out;
}

} // namespace drover::cli
