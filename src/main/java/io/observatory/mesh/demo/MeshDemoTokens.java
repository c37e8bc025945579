package io.observatory.mesh.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.stereotype.Component;

/**
 * Writes the mesh demo's witness tokens before the configuration is bound (profile {@code mesh-demo} only): one random
 * token per witness in a fresh temporary directory, readable by this user only, which {@code mesh-demo.tokens} then
 * names for the hub's {@code token-file}s and the demo's witnesses. A bean factory post-processor, so it runs before
 * any bean binds the configuration; nothing of it is registered outside the profile.
 */
@Component
@Profile("mesh-demo")
final class MeshDemoTokens implements BeanFactoryPostProcessor, EnvironmentAware {

    /** The demo's witnesses. */
    static final int WITNESSES = 4;

    /** The property naming the token directory. */
    static final String DIRECTORY = "mesh-demo.tokens";

    private @Nullable ConfigurableEnvironment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = (ConfigurableEnvironment) environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        ConfigurableEnvironment environment = Objects.requireNonNull(this.environment, "set by the container");
        if (environment.containsProperty(DIRECTORY)) {
            return;
        }
        try {
            Path directory = Files.createTempDirectory("observatory-mesh-demo-");
            directory.toFile().deleteOnExit();
            SecureRandom random = new SecureRandom();
            for (int i = 1; i <= WITNESSES; i++) {
                byte[] token = new byte[16];
                random.nextBytes(token);
                Path file = Files.writeString(
                        directory.resolve("w" + i + ".token"), HexFormat.of().formatHex(token));
                file.toFile().deleteOnExit();
            }
            environment
                    .getPropertySources()
                    .addFirst(new MapPropertySource("mesh-demo-tokens", Map.of(DIRECTORY, directory.toString())));
        } catch (IOException e) {
            throw new UncheckedIOException("mesh demo: cannot write the witness tokens", e);
        }
    }
}
