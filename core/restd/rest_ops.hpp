// rest_ops.hpp - the operations behind drover-restd's paths, and the JSON envelope of their
// answers (meta, errors, warnings) as slurmrestd writes it.
#pragma once

#include <map>
#include <string>
#include <vector>

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

// {"errors":[{...}],"warnings":[],"meta":{...}} with status.
HttpResponse error_response(http::status status, const std::string &version,
                            const std::string &source, const std::string &text, int code = -1);
// A JSON document as the answer, with status 200.
HttpResponse json_response(std::string body, http::status status = http::status::ok);

// The OpenAPI document of the paths served (GET /openapi/v3).
std::string openapi_document();

} // namespace drover::restd
