package io.observatory.mesh.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Writes the mesh demo's witness tokens before the configuration is bound (profile {@code mesh-demo}): one random
 * token per witness in a fresh temporary directory, readable by this user only, which {@code mesh-demo.tokens} then
 * names for the hub's {@code token-file}s and the demo's witnesses. Does nothing for any other profile.
 */
public final class MeshDemoTokens implements EnvironmentPostProcessor {

    /** The demo's witnesses. */
    static final int WITNESSES = 4;

    /** The property naming the token directory. */
    static final String DIRECTORY = "mesh-demo.tokens";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.matchesProfiles("mesh-demo") || environment.containsProperty(DIRECTORY)) {
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
