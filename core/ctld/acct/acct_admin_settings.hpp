// acct_admin_settings.hpp - sacctmgr's settings (limits, QOS lists, QOS records) in the plan of
// a request: the qos entity whole, and the settings part of adding, modifying and showing users,
// accounts and associations. Pure, like plan_admin.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctld/acct/acct_admin.hpp"

namespace drover::ctld {

// add, modify, delete and show of QOS records.
void plan_qos(const AssocDb &db, const AdminRequest &req, AdminPlan &plan);

// The values of key in fields as one lower-case list (several occurrences add up; blanks and
// quotes dropped): the names and conditions a request gives.
std::vector<std::string> admin_values(const AdminFields &fields, std::string_view key);

// True when key is a setting an association or a QOS takes (GrpJobs, MaxWall, QOS, ...).
bool is_setting_key(const std::string &key);

// Applies the settings among fields to rec (an association): "" or the refusal. pending names
// QOS records this request adds (none today: they are added by a request of their own).
std::string apply_assoc_settings(const AssocDb &db, const AdminFields &fields, AssocRec &rec);

// Adds rec's settings to a show row, as sacctmgr shows them (the QOS list and default QOS in
// force, inherited from the parents when the association has none of its own).
void add_settings_row(const AssocDb &db, const AssocRec &rec, AdminFields &row);

} // namespace drover::ctld
