package io.observatory.proxycore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.proxycore.ProxyCoreSettings.CommandLine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The core's command line, asked of real executables: Debian's v2ray 4.34, and two that are no core. */
class CoreCommandTest {

    @Test
    void autoWhenV2ray4ThenItsConfigFlag() {
        CoreCommand v2ray = CoreCommand.of(Path.of("/usr/bin/v2ray"), CommandLine.AUTO);

        assertThat(v2ray.style()).isEqualTo(CommandLine.CONFIG_FLAG);
        assertThat(v2ray.run(Path.of("/etc/core.json"))).containsExactly("/usr/bin/v2ray", "-config", "/etc/core.json");
    }

    @Test
    void runWhenConfiguredThenXraysCommandLine() {
        assertThat(CoreCommand.of(Path.of("/usr/bin/v2ray"), CommandLine.RUN).run(Path.of("/etc/core.json")))
                .containsExactly("/usr/bin/v2ray", "run", "-c", "/etc/core.json");
    }

    @Test
    void autoWhenTheBinaryIsNoCoreOrMissingThenOneLineNamingIt() {
        assertThatThrownBy(() -> CoreCommand.of(Path.of("/bin/echo"), CommandLine.AUTO))
                .hasMessage("/bin/echo: printed neither Xray nor V2Ray for -version (expected: the xray or v2ray"
                        + " executable, or command-line: run or config-flag for another core)");
        assertThatThrownBy(() -> CoreCommand.of(Path.of("/nonexistent/xray"), CommandLine.AUTO))
                .hasMessage("/nonexistent/xray: no such file (expected: the xray or v2ray executable)");
    }
}
