/**
 * Authentication and authorization of every gRPC service, deny by default: {@link io.observatory.api.auth.ApiGuard}
 * wraps each service it is given with the {@link io.observatory.api.auth.ServiceAccess} that declares its reads (every
 * other method is a write), checks the call's bearer token ({@link io.observatory.api.auth.Authorization}) or verified
 * mTLS client certificate against the rules in force, and refuses start-up when a service reaches the server unguarded.
 * The token sources are a file re-read as it changes or an environment variable read at start-up.
 */
@NullMarked
package io.observatory.api.auth;

import org.jspecify.annotations.NullMarked;
