package io.observatory.reload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.env.MockEnvironment;

class ConfigFilesTest {

    @TempDir
    Path dir;

    @Test
    void ofWhenLocationsMixPrefixesThenOnlyFileSystemEntriesAreWatched() throws IOException {
        Path file = Files.writeString(dir.resolve("observatory.yml"), "observatory: {}\n");
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.config.location", "classpath:/application.yml,optional:file:" + file)
                .withProperty("spring.config.additional-location", dir + "/");

        assertThat(ConfigFiles.of(environment))
                .containsExactly(
                        file,
                        dir.resolve("application.yml"),
                        dir.resolve("application.yaml"),
                        dir.resolve("application.properties"));
    }

    @Test
    void ofWhenNoLocationGivenThenNothingIsWatched() {
        assertThat(ConfigFiles.of(new MockEnvironment())).isEmpty();
    }
}
