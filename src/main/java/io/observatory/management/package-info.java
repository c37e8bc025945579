/**
 * The management side of the service, served by Spring Boot Actuator on its own HTTP port: readiness from the
 * observation, the probe metrics and the per-outbound gauges that follow the observation's change events, the
 * read-only {@code observatory} endpoint, and the port by which a capability shows its part of the observation there
 * and on the status page ({@link io.observatory.management.PartView}).
 */
@NullMarked
package io.observatory.management;

import org.jspecify.annotations.NullMarked;
