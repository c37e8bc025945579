package io.observatory.reload;

import io.observatory.config.ObservatoryConfig;

/**
 * A component that follows configuration changes. Live reload ({@code io.observatory.reload}) calls every
 * {@code Reconfigurable} bean on the writer with each valid new configuration, in {@code @Order} of their bean
 * definitions; the start-up configuration is each component's constructor argument, not a call.
 */
@FunctionalInterface
public interface Reconfigurable {

    /**
     * Applies {@code next}, already bound and validated; runs on the writer thread. Settings that cannot change while
     * the service runs are kept and the call says so in a log line.
     */
    void reconfigure(ObservatoryConfig next);
}
