package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.HostPort;
import io.observatory.config.HttpUrl;
import io.observatory.config.Problems;
import io.observatory.health.ExpectedStatus;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One {@code observatory.mesh.witness.checks[i]}: a local check of the witness's own server for its
 * self-report; exactly one of {@code tcp}, {@code http} and {@code pid-file}.
 *
 * @param tcp            {@code host:port} that must accept a TCP connection, e.g. {@code 127.0.0.1:443}. Default: none
 * @param http           absolute http(s) URL that must answer with an expected status. Default: none
 * @param pidFile        path of a file holding the process ID of a process that must be alive. Default: none
 * @param expectedStatus the statuses an {@code http} check accepts. Default: 200-399
 */
public record SelfCheckSettings(
        @Nullable String tcp,
        @Nullable @HttpUrl String http,
        @Nullable String pidFile,
        @DefaultValue("200-399") ExpectedStatus expectedStatus)
        implements Checked {

    /** Reads blank values as unset. */
    public SelfCheckSettings {
        tcp = tcp == null || tcp.isBlank() ? null : tcp.strip();
        http = http == null || http.isBlank() ? null : http.strip();
        pidFile = pidFile == null || pidFile.isBlank() ? null : pidFile;
    }

    /** The check as reports name it, e.g. {@code tcp 127.0.0.1:443}. */
    public String describe() {
        return tcp != null ? "tcp " + tcp : http != null ? "http " + http : "pid-file " + pidFile;
    }

    @Override
    public void check(Problems problems) {
        List<String> set = new ArrayList<>(3);
        if (tcp != null) {
            set.add("tcp");
            if (HostPort.parse(tcp) == null) {
                problems.reject("tcp", HostPort.EXPECTED);
            }
        }
        if (http != null) {
            set.add("http");
        }
        if (pidFile != null) {
            set.add("pid-file");
        }
        if (set.size() != 1) {
            problems.reject(
                    set.isEmpty() ? "tcp" : set.get(1),
                    set.isEmpty() ? "none" : String.join(" and ", set),
                    "exactly one of tcp, http and pid-file");
        }
    }
}
