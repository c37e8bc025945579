package io.observatory.config;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.api}: the v1 API.
 *
 * @param auth who may call it
 */
public record ApiSettings(
        @DefaultValue @NestedConfigurationProperty ApiAuthSettings auth) {}
