// rest_ops.hpp - the operations behind drover-restd's paths, and the JSON envelope of their
// answers (meta, errors, warnings) as slurmrestd writes it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/json_writer.hpp"
#include "restd/ctld_caller.hpp"
#include "restd/http_server.hpp"

namespace drover::restd {

// What an operation gets: the controller, the client's identity, the API version ("v0.0.42"),
// the path's argument (a job id, a node or partition name; empty when none), the query and the
// request itself.
struct OpCall {
    const CtldCaller &ctld;
    Identity who;
    std::string version;
    std::string arg;
    std::map<std::string, std::string> query;
    const HttpRequest &req;
};

using Operation = HttpResponse (*)(const OpCall &);

struct OpEntry {
    http::verb method;
    const char *base;    // "slurm" or "slurmdb"
    const char *path;    // after the version: "jobs", "job/{job_id}"
    const char *summary; // for /openapi/v3
    Operation run;
};

// Every operation, in the order /openapi/v3 lists them.
const std::vector<OpEntry> &operations();

// The envelope after an operation's payload (w holds the open top-level object): meta, errors,
// warnings; closes the object and returns the document.
std::string finish_document(JsonWriter &w, const std::string &version,
                            const std::vector<std::string> &warnings = {},
                            const char *base = "slurm");
// A refusal by the controller (its code as the HTTP status: 401 for a refused token, 403, 404,
// 400, else 500) or a failure to reach it (503), as the answer.
HttpResponse failed(const std::exception &e, const OpCall &c, const char *source);
int64_t now_s();
// A stored list ("a,b") as the JSON array under key.
void write_list(JsonWriter &w, const char *key, const std::string &csv);
// The path's job id as a request's list (empty: every job); false when it is no job id.
bool job_ids_of(const OpCall &c, std::vector<uint32_t> *ids);
// "Invalid job id specified: ARG" with status (400: no job id; 404: no such job).
HttpResponse invalid_job(const OpCall &c, http::status status);

// The records of a reply's list (none when it is absent).
template <class T>
std::vector<const T *> records(const flatbuffers::Vector<flatbuffers::Offset<T>> *list) {
    std::vector<const T *> out;
    if (list)
        for (const T *r : *list) out.push_back(r);
    return out;
}

// The operations (rest_jobs.cpp, rest_nodes.cpp, rest_db.cpp, rest_ops.cpp).
HttpResponse get_ping(const OpCall &c);
HttpResponse get_diag(const OpCall &c);
HttpResponse get_licenses(const OpCall &c);
HttpResponse get_shares(const OpCall &c);
HttpResponse get_jobs(const OpCall &c);
HttpResponse post_job(const OpCall &c);
HttpResponse delete_job(const OpCall &c);
HttpResponse post_submit(const OpCall &c);
HttpResponse get_nodes(const OpCall &c);
HttpResponse post_node(const OpCall &c);
HttpResponse get_partitions(const OpCall &c);
HttpResponse get_reservations(const OpCall &c);
HttpResponse get_db_jobs(const OpCall &c);
HttpResponse get_db_accounts(const OpCall &c);
HttpResponse get_db_users(const OpCall &c);
HttpResponse get_db_clusters(const OpCall &c);
HttpResponse get_db_associations(const OpCall &c);
HttpResponse get_db_qos(const OpCall &c);
HttpResponse get_db_tres(const OpCall &c);
HttpResponse get_jobs_state(const OpCall &c);
HttpResponse delete_jobs(const OpCall &c);
HttpResponse post_allocate(const OpCall &c);
HttpResponse get_db_config(const OpCall &c);

// {"errors":[{...}],"warnings":[],"meta":{...}} with status.
HttpResponse error_response(http::status status, const std::string &version,
                            const std::string &source, const std::string &text, int code = -1);
// A JSON document as the answer, with status 200.
HttpResponse json_response(std::string body, http::status status = http::status::ok);

// The OpenAPI document of the paths served (GET /openapi/v3).
std::string openapi_document();

} // namespace drover::restd
