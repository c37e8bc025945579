package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.testing.Configs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StateSettingsTest {

    private static final String[] OUTBOUNDS = {
        "outbounds[0].tag=a",
        "outbounds[0].protocol=direct",
        "outbounds[1].tag=b",
        "outbounds[1].protocol=direct",
        "outbounds[2].tag=c",
        "outbounds[2].protocol=direct"
    };

    @Test
    void bindWhenUnsetOrBlankThenOffWithAFiveSecondWriteInterval() {
        assertThat(Configs.of().section(StateSettings.SECTION).enabled()).isFalse();
        assertThat(Configs.of("state.directory=  ")
                        .section(StateSettings.SECTION)
                        .enabled())
                .isFalse();
        assertThat(Configs.of().section(StateSettings.SECTION).writeInterval()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void bindWhenADirectoryThenTheFileInIt(@TempDir Path directory) {
        StateSettings state =
                Configs.of("state.directory=" + directory.resolve("not-yet")).section(StateSettings.SECTION);

        assertThat(state.file()).isEqualTo(directory.resolve("not-yet").resolve("observatory.state"));
    }

    @Test
    void bindWhenTheDirectoryIsAFileThenOneLine(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("plain"), "x");

        assertThat(Configs.rejection("state.directory=" + file))
                .isEqualTo("observatory.state.directory: " + file + " (expected: a directory, not a file)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0s", "999ms", "1h0m1s", "-5s"})
    void bindWhenWriteIntervalOutsideItsRangeThenOneLine(String interval) {
        assertThat(Configs.rejection("state.write-interval=" + interval))
                .isEqualTo("observatory.state.write-interval: " + interval
                        + " (expected: a duration from 1s up to 1h0m0s)");
    }

    @Test
    void maxAgeWhenUnsetThenThreeTimesTheWaitBetweenTwoProbesOfAnOutboundAtLeastAMinute() {
        assertThat(maxAge("standard.probe-interval=10s", "standard.enable-concurrency=true"))
                .as("concurrent, 3 x 10 s raised to a minute")
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(maxAge("standard.probe-interval=30s", "standard.enable-concurrency=true"))
                .as("concurrent")
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(maxAge("standard.probe-interval=10s"))
                .as("sequential, 3 outbounds")
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(maxAge(
                        "standard.probe-interval=10s",
                        "standard.schedule=per-outbound",
                        "standard.unhealthy-interval=1m"))
                .as("per outbound, unhealthy slower")
                .isEqualTo(Duration.ofMinutes(3));
        assertThat(maxAge("burst.ping-config.interval=1m", "burst.ping-config.sampling=2"))
                .as("burst")
                .isEqualTo(Duration.ofMinutes(6));
        assertThat(maxAge("standard.probe-interval=10s", "state.max-age=2m"))
                .as("set")
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void maxAgeWhenThreeWaitsExceedTheLongestDurationThenTheLongestDuration() {
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);

        assertThat(maxAge(
                        "standard.probe-interval=10s",
                        "standard.schedule=per-outbound",
                        "standard.unhealthy-interval=2562047h"))
                .isEqualTo(longest);
        assertThat(maxAge("standard.probe-interval=1000000h"))
                .as("sequential, 3 outbounds")
                .isEqualTo(longest);
    }

    private static Duration maxAge(String... properties) {
        String[] all = new String[OUTBOUNDS.length + properties.length];
        System.arraycopy(OUTBOUNDS, 0, all, 0, OUTBOUNDS.length);
        System.arraycopy(properties, 0, all, OUTBOUNDS.length, properties.length);
        ObservatoryConfig config = Configs.of(all);
        return config.section(StateSettings.SECTION).maxAge(config, List.of());
    }
}
