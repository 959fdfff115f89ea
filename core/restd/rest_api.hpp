// rest_api.hpp - slurmrestd's paths (OpenAPI v0.0.40 to v0.0.44) over the controller: each HTTP
// request is matched to an operation of a static table (the same table /openapi/v3 describes),
// its client identified (a JWT, or the peer of a UNIX socket), and the operation run on a worker
// thread against the controller, in the client's name.
#pragma once

#include <string>
#include <vector>

#include "net/call_pool.hpp"
#include "restd/ctld_caller.hpp"
#include "restd/http_server.hpp"

namespace drover::restd {

// -a rest_auth/jwt (tokens) or rest_auth/local (the UNIX socket's peer).
enum class AuthMode { jwt, local };

// The API versions served: the path's vX.
const std::vector<std::string> &api_versions();

class RestApi {
  public:
    // status_page: serve the status page at /status (off by default).
    RestApi(const Config &conf, AuthMode mode, net::CallPool &pool, bool status_page = false);
    void handle(HttpRequest req, const Client &client, Reply reply);

  private:
    bool identify(const HttpRequest &req, const Client &client, Identity *who,
                  std::string *why) const;
    CtldCaller ctld_;
    AuthMode mode_;
    net::CallPool &pool_;
    bool status_page_;
};

} // namespace drover::restd
