package io.kuberaysim.console;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** With token auth on, the console loads, asks for the token on the first 401 and then reads with it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.auth.token=" + ConsoleTokenBrowserIT.TOKEN})
class ConsoleTokenBrowserIT {
    static final String TOKEN = "console-test-token";
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

    @Test
    void asksForTheTokenAndUsesIt() {
        WebDriver driver = browser.driver;
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        driver.get("http://127.0.0.1:" + port + "/");
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-dialog")));
        assertThat(dialog.getText()).contains("bearer token");
        browser.screenshot("token");

        dialog.findElement(By.name("token")).sendKeys("wrong");
        dialog.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(d -> d.findElement(By.cssSelector("#token-dialog .token-message")).getText()
                .contains("refused"));
        WebElement input = driver.findElement(By.name("token"));
        input.clear();
        input.sendKeys(TOKEN);
        driver.findElement(By.cssSelector("#token-dialog button[type=submit]")).click();

        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("token-dialog")));
        wait.until(d -> d.findElement(By.id("clock-mode")).getText().equals("virtual"));
        wait.until(d -> d.findElement(By.cssSelector("#overview-RayCluster .count")).getText().equals("(0)"));
    }
}
