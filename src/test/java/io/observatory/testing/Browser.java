package io.observatory.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium ({@code /usr/bin/chromium}) driven by Selenium through Debian's chromedriver
 * ({@code /usr/bin/chromedriver}), both given by path so that Selenium Manager neither looks for nor downloads
 * anything; {@code apt-get install chromium chromium-driver} installs them ({@code .ci/run} does). Screenshots go to
 * {@code target/browser-artifacts/}.
 */
public final class Browser implements AutoCloseable {

    /** Where screenshots are kept, as test artifacts. */
    public static final Path ARTIFACTS = Path.of("target", "browser-artifacts");

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    /** The most entries the page journal keeps (the latest), about 100 bytes each. */
    private static final int JOURNAL_LIMIT = 400;

    private final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /**
     * Starts a headless browser with a 1400 × 1000 window.
     *
     * @throws IllegalStateException naming the packages to install when Chromium or its driver is missing
     */
    public static Browser start() {
        for (Path executable : new Path[] {CHROMIUM, CHROMEDRIVER}) {
            if (!Files.isExecutable(executable)) {
                throw new IllegalStateException(executable + " is missing (expected: Debian's chromium and"
                        + " chromium-driver: apt-get install -y chromium chromium-driver, as .ci/run does)");
            }
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--window-size=1400,1000",
                "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new Browser(new ChromeDriver(service, options));
    }

    /** The browser, for pages and elements. */
    public ChromeDriver driver() {
        return driver;
    }

    /**
     * Waits up to {@code timeout} for a condition of the page, polling every 100 ms; an element the page replaced
     * while the condition read it counts as not yet. A test that keeps a journal ({@link #keepJournal}) gives it in
     * the wait's message ({@code withMessage}), so that a timeout shows what the page showed meanwhile.
     */
    public WebDriverWait waiting(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(driver, timeout);
        wait.pollingEvery(Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    /**
     * Starts the page's journal: from now on, each time the texts of the elements matching the CSS {@code selector}
     * change (as a {@code MutationObserver} on the document sees it), one entry — the milliseconds since this call
     * and each element's text after the label of its nearest element with a {@code data-server},
     * {@code data-witness} or {@code data-tag} attribute or an id. The latest {@value #JOURNAL_LIMIT} entries are
     * kept. A reload ends it.
     */
    public void keepJournal(String selector) {
        driver.executeScript("""
                const selector = arguments[0], limit = arguments[1], start = performance.now();
                const label = (e) => {
                  const host = e.closest('[data-server],[data-witness],[data-tag],[id]');
                  return host === null ? '?' : host.dataset.server || host.dataset.witness || host.dataset.tag
                      || host.id;
                };
                const shown = () => [...document.querySelectorAll(selector)]
                    .map((e) => label(e) + ': ' + e.innerText.replace(/\\s+/g, ' ').trim()).join(' | ');
                const journal = window.browserTestJournal = [];
                let last = null;
                const note = () => {
                  const now = shown();
                  if (now === last) return;
                  last = now;
                  journal.push(Math.round(performance.now() - start) + ' ' + now);
                  if (journal.length > limit) journal.shift();
                };
                note();
                new MutationObserver(note).observe(document.body,
                    { subtree: true, childList: true, characterData: true, attributes: true });
                """, selector, JOURNAL_LIMIT);
    }

    /**
     * The page journal's entries after a line saying what they are, an entry a line; one line saying so when
     * {@link #keepJournal} was not called on this document.
     */
    @SuppressWarnings("unchecked")
    public String journal() {
        Object entries = driver.executeScript("return window.browserTestJournal ?? null;");
        return entries == null
                ? "no page journal (keepJournal was not called on this document)"
                : "what the page showed, in milliseconds since its journal started:\n"
                        + String.join("\n", (List<String>) entries);
    }

    /**
     * The text a person sees in the first element matching the CSS {@code selector} ({@code innerText}), or
     * {@code null} when none matches; read in one step, so a live page cannot replace the element halfway.
     */
    public @Nullable String text(String selector) {
        return (String) driver.executeScript(
                "const e = document.querySelector(arguments[0]);" + " return e === null ? null : e.innerText;",
                selector);
    }

    /** The attribute {@code name} of every element matching {@code selector}, in document order; one step. */
    @SuppressWarnings("unchecked")
    public List<String> attributes(String selector, String name) {
        return (List<String>) driver.executeScript(
                "return [...document.querySelectorAll(arguments[0])]" + ".map(e => e.getAttribute(arguments[1]));",
                selector,
                name);
    }

    /**
     * The computed value of the CSS {@code property} of the first element matching {@code selector}, e.g.
     * {@code rgb(26, 127, 55)} for a colour; {@code null} when none matches.
     */
    public @Nullable String style(String selector, String property) {
        return (String) driver.executeScript(
                "const e = document.querySelector(arguments[0]);"
                        + " return e === null ? null : getComputedStyle(e).getPropertyValue(arguments[1]);",
                selector,
                property);
    }

    /** Whether the page is the document first loaded: the script marker set by {@link #mark} is still there. */
    public boolean sameDocument() {
        return Boolean.TRUE.equals(driver.executeScript("return window.browserTestMark === true"
                + " && performance.getEntriesByType('navigation').length === 1;"));
    }

    /** Marks the current document, so that {@link #sameDocument} tells whether it was reloaded since. */
    public void mark() {
        driver.executeScript("window.browserTestMark = true;");
    }

    /** Keeps a screenshot of the window as {@code target/browser-artifacts/<name>.png} and returns its path. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(ARTIFACTS);
            Path target = ARTIFACTS.resolve(name + ".png");
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("screenshot " + name, e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
