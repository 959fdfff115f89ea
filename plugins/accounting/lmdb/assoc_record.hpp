// assoc_record.hpp - sacctmgr's records (clusters, accounts, users, associations) as stored in the
// "assocs" database: an owning copy, its key and its packed bytes.
//
// Key: the kind as one byte, then the name, or for an association cluster, account, user and
// partition joined by NUL bytes.
// Packed format, version 1 (integers little-endian): u8 version = 1; u32 kind, admin_level;
// 9 strings, each u32 length + bytes: name, cluster, account, user, partition, parent,
// description, organization, default_account. Version 2 appends a tenth, attrs (ABI 1.8);
// a version 1 record reads with attrs empty.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <drover/accounting.h>

namespace drover::acct_lmdb {

struct AssocRecord {
    uint32_t kind = 0, admin_level = 0;
    std::string name, cluster, account, user, partition, parent, description, organization,
        default_account, attrs;

    static AssocRecord from(const drover_acct_assoc &a);
    // OWNERSHIP: the strings point into *this.
    drover_acct_assoc view() const;
    std::string key() const;
    std::string pack() const;
    static std::optional<AssocRecord> unpack(std::string_view bytes);
};

} // namespace drover::acct_lmdb
