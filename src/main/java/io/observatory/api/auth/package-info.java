/**
 * Authentication of the v1 gRPC API: the global server interceptor that guards
 * {@code observatory.v1.ObservatoryService} (bearer token or verified mTLS client certificate) and the token sources
 * it checks against (a file re-read as it changes, or an environment variable read at startup).
 */
@NullMarked
package io.observatory.api.auth;

import org.jspecify.annotations.NullMarked;
