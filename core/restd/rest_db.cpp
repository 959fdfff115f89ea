// rest_db.cpp - the /slurmdb/ paths: jobs from the accounting store, as sacct --json shows them.
#include "restd/rest_ops.hpp"

#include <cstdlib>
#include <map>

#include "cli/json_records.hpp"
#include "proto/fb_read.hpp"

namespace drover::restd {

// GET /slurmdb/V/jobs (?users=a,b) and /slurmdb/V/job/{id}: every job and step the store holds
// that the client may see.
HttpResponse get_db_jobs(const OpCall &c) {
    try {
        std::vector<uint32_t> ids;
        if (!job_ids_of(c, &ids)) return invalid_job(c, http::status::bad_request);
        flatbuffers::FlatBufferBuilder fbb;
        proto::AcctQueryRequestBuilder b(fbb);
        auto idv = fbb.CreateVector(ids);
        b.add_job_ids(idv);
        auto req = b.Finish();
        net::Reply reply = c.ctld.call(fbb, proto::Body::AcctQueryRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::AcctQueryResponse>();
        auto jobs = records(r->jobs());
        if (!c.arg.empty() && jobs.empty()) return invalid_job(c, http::status::not_found);
        return json_response(cli::acct_jobs_json(jobs, now_s()));
    } catch (const std::exception &e) {
        return failed(e, c, "slurmdb_jobs_get");
    }
}

namespace {

using Row = std::map<std::string, std::string>;

// sacctmgr show ENTITY's rows (as the controller's accounting store has them for this client).
std::vector<Row> admin_rows(const OpCall &c, const char *entity) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<proto::KeyValue>> where;
    if (!c.arg.empty()) where.push_back(proto::CreateKeyValueDirect(fbb, "name", c.arg.c_str()));
    auto req = proto::CreateAcctAdminRequestDirect(fbb, "show", entity, nullptr, &where);
    net::Reply reply = c.ctld.call(fbb, proto::Body::AcctAdminRequest, req.Union(), c.who);
    const auto *r = reply.as<proto::AcctAdminResponse>();
    std::vector<Row> rows;
    for (const auto *row : records(r->rows())) {
        Row out;
        for (const auto *kv : records(row->fields()))
            out[proto::str(kv->key())] = proto::str(kv->value());
        rows.push_back(std::move(out));
    }
    return rows;
}

// A number field slurmrestd writes as {"number", "set", "infinite"} (empty: not set).
void number(JsonWriter &w, const char *key, const std::string &v) {
    bool set = !v.empty();
    w.kv_number_obj(key, set ? std::strtoull(v.c_str(), nullptr, 10) : 0, set, false);
}

void account(JsonWriter &w, Row &r) {
    w.kv("name", r["account"]).kv("description", r["description"]);
    w.kv("organization", r["organization"]);
    w.key("coordinators").begin_array().end_array().key("flags").begin_array().end_array();
}

void user(JsonWriter &w, Row &r) {
    w.kv("name", r["user"]);
    w.key("default").begin_object().kv("account", r["defaultaccount"]).kv("wckey", "").end_object();
    write_list(w, "administrator_level", r["adminlevel"]);
    w.key("coordinators").begin_array().end_array().key("flags").begin_array().end_array();
}

void cluster(JsonWriter &w, Row &r) {
    w.kv("name", r["cluster"]);
    w.key("controller").begin_object().kv("host", r["controlhost"]);
    w.kv_num("port", std::atoi(r["controlport"].c_str())).end_object();
    w.kv_num("rpc_version", std::atoi(r["rpc"].c_str()));
    w.key("flags").begin_array().end_array().kv("nodes", "");
}

void association(JsonWriter &w, Row &r) {
    w.kv("cluster", r["cluster"]).kv("account", r["account"]).kv("user", r["user"]);
    w.kv("partition", r["partition"]).kv("parent_account", r["parentname"]);
    write_list(w, "qos", r["qos"]);
    w.key("default").begin_object().kv("qos", r["defaultqos"]).end_object();
    number(w, "shares_raw", r["fairshare"]);
    number(w, "priority", r["priority"]);
}

void qos(JsonWriter &w, Row &r) {
    w.kv("name", r["name"]).kv("description", r["description"]);
    number(w, "priority", r["priority"]);
    write_list(w, "flags", r["flags"]);
    w.key("preempt").begin_object();
    write_list(w, "list", r["preempt"]);
    write_list(w, "mode", r["preemptmode"]);
    w.end_object();
    w.kv_number_obj("usage_factor", 0, false, false);
}

struct Entity {
    const char *entity, *list_key;
    void (*write)(JsonWriter &, Row &);
};

const Entity kAccounts{"account", "accounts", account}, kUsers{"user", "users", user},
    kClusters{"cluster", "clusters", cluster},
    kAssociations{"association", "associations", association}, kQos{"qos", "qos", qos};

// One entity's rows as the JSON list under its key.
void write_rows(JsonWriter &w, const Entity &e, std::vector<Row> &rows) {
    w.key(e.list_key).begin_array();
    for (Row &r : rows) {
        w.begin_object();
        e.write(w, r);
        w.end_object();
    }
    w.end_array();
}

// The trackable resources Slurm's accounting store always has, with its ids (sacctmgr show tres);
// a generic resource's are per site and not tracked by Drover's stores yet.
void write_tres(JsonWriter &w) {
    static constexpr std::pair<const char *, const char *> kTres[] = {
        {"cpu", ""},     {"mem", ""},    {"energy", ""}, {"node", ""},
        {"billing", ""}, {"fs", "disk"}, {"vmem", ""},   {"pages", ""}};
    w.key("tres").begin_array();
    int id = 1;
    for (const auto &[type, name] : kTres) {
        w.begin_object().kv("type", type).kv("name", name);
        w.kv_num("id", id++).kv_num("count", 0).end_object();
    }
    w.end_array();
}

// The records of one entity (all, or the one the path names) as their JSON list.
HttpResponse show(const OpCall &c, const Entity &e) {
    try {
        std::vector<Row> rows = admin_rows(c, e.entity);
        if (!c.arg.empty() && rows.empty())
            return error_response(http::status::not_found, c.version, e.entity,
                                  "Nothing found for " + c.arg);
        JsonWriter w;
        w.begin_object();
        write_rows(w, e, rows);
        return json_response(finish_document(w, c.version, {}, "slurmdb"));
    } catch (const std::exception &ex) {
        return failed(ex, c, "slurmdb_show");
    }
}

} // namespace

// GET /slurmdb/V/accounts, users, clusters, associations, qos (and one by name): the
// accounting store's records, as sacctmgr shows them to this client.
HttpResponse get_db_accounts(const OpCall &c) {
    return show(c, kAccounts);
}
HttpResponse get_db_users(const OpCall &c) {
    return show(c, kUsers);
}
HttpResponse get_db_clusters(const OpCall &c) {
    return show(c, kClusters);
}
HttpResponse get_db_associations(const OpCall &c) {
    return show(c, kAssociations);
}
HttpResponse get_db_qos(const OpCall &c) {
    return show(c, kQos);
}

// GET /slurmdb/V/tres: the trackable resources.
HttpResponse get_db_tres(const OpCall &c) {
    JsonWriter w;
    w.begin_object();
    write_tres(w);
    return json_response(finish_document(w, c.version, {}, "slurmdb"));
}

// GET /slurmdb/V/config: the whole accounting configuration in one document (slurmrestd's
// dump): clusters, TRES, accounts, users, QOS, associations; no WCKeys or instances (Drover's
// stores keep none).
HttpResponse get_db_config(const OpCall &c) {
    try {
        JsonWriter w;
        w.begin_object();
        for (const Entity *e : {&kClusters, &kAccounts, &kUsers, &kQos, &kAssociations}) {
            std::vector<Row> rows = admin_rows(c, e->entity);
            write_rows(w, *e, rows);
        }
        write_tres(w);
        w.key("wckeys").begin_array().end_array().key("instances").begin_array().end_array();
        return json_response(finish_document(w, c.version, {}, "slurmdb"));
    } catch (const std::exception &ex) {
        return failed(ex, c, "slurmdb_config_get");
    }
}

} // namespace drover::restd
