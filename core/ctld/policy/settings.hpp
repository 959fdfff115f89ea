// settings.hpp - what sacctmgr sets on an association or a QOS besides its names: limits
// (GrpTRES, MaxJobs, MaxWall, ...), an association's QOS list and default QOS, a QOS's priority,
// flags and preemption. One table says each setting's key, kind and owner; a record keeps them
// as Settings (canonical key -> stored text), and the accounting store keeps them as one text
// (encode/decode) that only the controller reads.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace drover::ctld::policy {

using Settings = std::map<std::string, std::string, std::less<>>;

// Which records take a setting.
enum class Owner { Assoc, Qos };

// "key=value;key=value" and back (values never hold ';': apply_setting refuses it).
std::string encode(const Settings &s);
Settings decode(std::string_view attrs);

// True when key (canonical, lower case) is a setting of owner.
bool is_setting(std::string_view key, Owner owner);

// Applies sacctmgr's key=value to s: "-1" (or empty) clears it; for lists (QOS, Preempt, Flags) a
// value starting with '+' or '-' adds or removes items. qos_exists checks QOS names. Returns ""
// or sacctmgr's refusal, leaving s unchanged.
std::string apply_setting(Settings &s, std::string_view key, std::string_view value, Owner owner,
                          const std::function<bool(std::string_view)> &qos_exists);

// The text sacctmgr shows for key: "" when unset, or for a QOS the value Slurm shows by default
// (Priority 0, GraceTime 00:00:00, PreemptMode cluster, UsageFactor 1.000000; an association's
// Fairshare 1); the table in settings.cpp holds them.
std::string display(const Settings &s, std::string_view key, Owner owner);

// Every setting key of owner, in table order (the columns of a show row).
std::vector<std::string_view> setting_keys(Owner owner);

// Items of a stored list ("high,normal").
std::vector<std::string> list_items(std::string_view stored);

} // namespace drover::ctld::policy
