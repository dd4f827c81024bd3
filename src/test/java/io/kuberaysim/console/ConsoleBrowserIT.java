package io.kuberaysim.console;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web console in a real browser against the server on a free loopback port, on the virtual clock: the seed's
 * RayCluster applied from the page comes up when the clock is advanced from the page, its head Pod deleted from the
 * page comes back, a worker group scaled from the page gets its third worker, the demo RayJob runs to Complete, the sample RayService serves from its active cluster, the timeline shows it all in the demo's wording, and the
 * editor shows the server's Status for bad input. Screenshots of every view go to target/console/.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "kuberay-sim.seed=4242")
class ConsoleBrowserIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static BrowserSession browser;

    @LocalServerPort
    int port;

    @BeforeAll
    static void startBrowser() throws IOException {
        BrowserSession.requireChromium();
        browser = BrowserSession.start();
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.close();
        }
    }

    private WebDriver driver() {
        return browser.driver;
    }

    private WebDriverWait waiting() {
        // views redraw parts of the page as events arrive: an element read a moment ago may be gone
        return (WebDriverWait) new WebDriverWait(driver(), WAIT).ignoring(StaleElementReferenceException.class);
    }

    private void open(String hash) {
        driver().get("http://127.0.0.1:" + port + "/console/" + hash);
        waiting().until(d -> hash.isEmpty() || d.findElement(By.id("view")).getAttribute("data-view") != null);
    }

    private void click(By by) {
        waiting().until(ExpectedConditions.elementToBeClickable(by)).click();
    }

    /** Loads a shipped manifest into the editor and presses Apply or Create; answers the result box's text. */
    private String submit(String example, String yaml, String button) {
        open("#/apply");
        WebElement editor = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("yaml-editor")));
        if (example != null) {
            waiting().until(d -> d.findElements(By.cssSelector("select option")).size() > 1);
            new Select(driver().findElement(By.cssSelector("main select"))).selectByValue(example);
            waiting().until(d -> editor.getDomProperty("value").contains("kind:"));
        } else {
            ((JavascriptExecutor) driver()).executeScript("arguments[0].value = arguments[1];", editor, yaml);
        }
        WebElement result = driver().findElement(By.id("apply-result"));
        ((JavascriptExecutor) driver()).executeScript("arguments[0].className = ''; arguments[0].textContent = '';",
                result);
        click(By.id(button));
        waiting().until(d -> !result.getAttribute("class").isEmpty());
        return result.getAttribute("class") + ": " + result.getText();
    }

    private String tileState(String pod) {
        List<WebElement> tiles = driver().findElements(By.cssSelector("[data-pod='" + pod + "']"));
        return tiles.isEmpty() ? "absent" : tiles.get(0).getAttribute("data-phase");
    }

    @Test
    void drivesTheSeedScenarioFromThePage() {
        try {
            seedScenario();
        } catch (RuntimeException | AssertionError e) {
            browser.screenshot("failure"); // what the page showed when the test gave up
            throw e;
        }
    }

    private void seedScenario() {
        driver().get("http://127.0.0.1:" + port + "/");
        waiting().until(d -> d.getCurrentUrl().endsWith("/console/"));
        waiting().until(d -> d.findElement(By.id("clock-mode")).getText().equals("virtual"));
        browser.screenshot("overview-empty");

        assertThat(submit("demo-raycluster.yaml", null, "apply-button"))
                .startsWith("ok").contains("RayCluster demo-raycluster:");

        // bad input: the server's Status next to the editor, and nothing written
        assertThat(submit("demo-raycluster.yaml", null, "create-button"))
                .startsWith("error").contains("rayclusters.ray.io \"demo-raycluster\" already exists");
        assertThat(submit(null, "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: typo\nspec:\n"
                + "  workerGroupSpecs:\n  - groupName: g\n    replicas: two\n", "apply-button"))
                .startsWith("error").contains("RayCluster typo:").contains("Nothing was changed");
        browser.screenshot("apply-error");

        open("#/raycluster/default/demo-raycluster");
        String head = "demo-raycluster-head";
        String[] workers = {"demo-raycluster-worker-small-wg-0", "demo-raycluster-worker-small-wg-1"};
        waiting().until(d -> tileState(head).equals("Pending"));
        click(By.cssSelector("[data-advance='10']"));
        waiting().until(d -> tileState(head).equals("Running") && tileState(workers[0]).equals("Running")
                && tileState(workers[1]).equals("Running"));
        waiting().until(d -> d.findElement(By.cssSelector(".toolbar .badge")).getText().equals("ready"));
        assertThat(driver().findElements(By.cssSelector("[data-service]"))).hasSizeGreaterThanOrEqualTo(1);
        browser.screenshot("raycluster");

        // a head Pod deleted from the page: Terminating, gone, recreated by the operator, Running again
        click(By.cssSelector("[data-pod='" + head + "'] button.delete"));
        waiting().until(d -> tileState(head).equals("Pending") || "Terminating".equals(
                d.findElement(By.cssSelector("[data-pod='" + head + "']")).getAttribute("data-state")));
        click(By.cssSelector("[data-advance='10']"));
        click(By.cssSelector("[data-advance='10']"));
        waiting().until(d -> tileState(head).equals("Running")
                && "Ready".equals(d.findElement(By.cssSelector("[data-pod='" + head + "']")).getAttribute("data-state")));

        // scale the worker group from the page: a third worker comes up
        WebElement replicas = driver().findElement(By.cssSelector("[data-group='small-wg'] input.replicas"));
        replicas.clear();
        replicas.sendKeys("3");
        click(By.cssSelector("[data-group='small-wg'] .scale button"));
        waiting().until(d -> !tileState("demo-raycluster-worker-small-wg-2").equals("absent"));
        click(By.cssSelector("[data-advance='10']"));
        waiting().until(d -> tileState("demo-raycluster-worker-small-wg-2").equals("Running"));

        assertThat(submit("example-job.yaml", null, "apply-button")).startsWith("ok");
        open("#/rayjob/default/example-job");
        click(By.id("clock-settle"));
        waiting().until(d -> d.findElement(By.cssSelector(".sm-state.current")).getText().equals("Complete"));
        assertThat(driver().findElement(By.cssSelector(".path")).getText())
                .isEqualTo("Path: New → Initializing → Running → Complete");
        browser.screenshot("rayjob");

        assertThat(submit("rayservice.yaml", null, "apply-button")).startsWith("ok");
        open("#/rayservice/default/rayservice-sample");
        click(By.id("clock-settle"));
        waiting().until(d -> d.findElement(By.cssSelector("[data-role='active']")).getText().contains("RUNNING")
                && d.findElement(By.cssSelector("[data-role='active']")).getText().contains("serve Service points here"));
        browser.screenshot("rayservice");

        open("#/overview");
        waiting().until(d -> d.findElements(By.cssSelector("#overview-RayCluster tr[data-name='demo-raycluster']"))
                .size() == 1);
        waiting().until(d -> d.findElement(By.cssSelector("#overview-RayJob tr[data-name='example-job']"))
                .getText().contains("Complete"));
        browser.screenshot("overview");

        open("#/nodes");
        waiting().until(d -> d.findElements(By.cssSelector(".node[data-node]")).size() == 4);
        waiting().until(d -> d.findElements(By.cssSelector(".bar-text")).stream()
                .anyMatch(e -> e.getText().matches("[1-9]\\d* / 16")));
        browser.screenshot("nodes");
        click(By.cssSelector(".node[data-node='sim-node-3'] .actions button"));
        waiting().until(d -> d.findElement(By.cssSelector(".node[data-node='sim-node-3'] .badge")).getText()
                .equals("Ready,SchedulingDisabled"));
        click(By.cssSelector(".node[data-node='sim-node-3'] .actions button"));
        waiting().until(d -> d.findElement(By.cssSelector(".node[data-node='sim-node-3'] .badge")).getText()
                .equals("Ready"));

        open("#/timeline");
        waiting().until(d -> d.findElement(By.id("timeline-lines")).getText()
                .contains("updated RayJob example-job status deployment=Complete job=SUCCEEDED"));
        String timeline = driver().findElement(By.id("timeline-lines")).getText();
        assertThat(timeline)
                .containsPattern("\\[ +\\d+\\.\\ds\\] created head Pod demo-raycluster-head")
                .containsPattern("\\[ +\\d+\\.\\ds\\] updated RayCluster demo-raycluster status ready=2/2 state=ready")
                .containsPattern("\\[ +\\d+\\.\\ds\\] deleted head Pod demo-raycluster-head")
                .contains("updated RayJob example-job status deployment=Initializing job=-")
                .doesNotContain("typo");
        browser.screenshot("timeline");
        driver().findElement(By.cssSelector("main input.filter")).sendKeys("example-job");
        waiting().until(d -> d.findElements(By.cssSelector("#timeline-lines .line")).stream()
                .filter(WebElement::isDisplayed).allMatch(e -> e.getText().contains("example-job")));
    }
}
