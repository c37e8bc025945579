/**
 * The management side of the service, served by Spring Boot Actuator on its own HTTP port: readiness from the
 * observation, observation gauges and the bookkeeping that keeps per-outbound meters bounded, and the read-only
 * {@code observatory} endpoint.
 */
@NullMarked
package io.observatory.management;

import org.jspecify.annotations.NullMarked;
