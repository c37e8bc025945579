package io.observatory.proxycore;

import io.observatory.config.ConfigSection;
import io.observatory.config.Outbound;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code observatory.core} in the one configuration pipeline: the outbounds it adds are those of the core's layout
 * (each copied outbound of the operator's file as SOCKS5 to its inbound, under its original tag), and the file's
 * {@code observatory} or {@code burstObservatory} block is the observer when the operator configured none. Holds the
 * layouts, so that the binding of start-up and of each reload and the supervisor read the same one.
 */
final class ProxyCoreSection implements ConfigSection<ProxyCoreSettings> {

    private final CoreLayouts layouts;

    ProxyCoreSection(CoreLayouts layouts) {
        this.layouts = layouts;
    }

    /** The layouts this section reads. */
    CoreLayouts layouts() {
        return layouts;
    }

    /** The layout of {@code settings} and their file as it is now. */
    CoreLayout layout(ProxyCoreSettings settings) {
        return layouts.layout(settings);
    }

    @Override
    public String key() {
        return "core";
    }

    @Override
    public Class<ProxyCoreSettings> type() {
        return ProxyCoreSettings.class;
    }

    @Override
    public Map<String, Outbound> outbounds(ProxyCoreSettings settings) {
        return layouts.layout(settings).outbounds();
    }

    @Override
    public Map<String, Object> observer(ProxyCoreSettings settings) {
        return layouts.layout(settings).observer();
    }

    /** The operator's file, watched so that a change to it is a reload. */
    @Override
    public List<Path> files(ProxyCoreSettings settings) {
        String file = settings.configFile();
        if (file == null) {
            return List.of();
        }
        try {
            return List.of(Path.of(file));
        } catch (InvalidPathException e) {
            return List.of();
        }
    }

    @Override
    public boolean active(ProxyCoreSettings settings) {
        return settings.enabled();
    }

    @Override
    public List<String> startUpOnly() {
        return List.of("work-directory");
    }
}
