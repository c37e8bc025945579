/**
 * The gRPC services: Xray's ObservatoryService, the observatory.v1 API with its watch streams, and grpc.health.v1
 * per outbound.
 */
@NullMarked
package io.observatory.api;

import org.jspecify.annotations.NullMarked;
