/**
 * The management side of the service, served by Spring Boot Actuator on its own HTTP port: readiness from the
 * observation, the probe metrics and the per-outbound gauges that follow the observation's change events, and the
 * read-only {@code observatory} endpoint; in {@code management.page}, the live status page on the same port.
 */
@NullMarked
package io.observatory.management;

import org.jspecify.annotations.NullMarked;
