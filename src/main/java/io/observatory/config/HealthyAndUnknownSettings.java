package io.observatory.config;

/**
 * {@code observatory.availability.healthy-and-unknown}: YARP's HealthyAndUnknown availability policy, which has no
 * parameters; an empty section ({@code healthy-and-unknown: {}}) selects it.
 */
public record HealthyAndUnknownSettings() {}
