package io.kuberaysim.config;

import io.kuberaysim.KuberaySimApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application registers its components from {@link ServerComponents}' list instead of scanning for them; this
 * scans as {@code @SpringBootApplication} did, so a component added without being listed fails here rather than
 * silently never being registered.
 */
class ServerComponentsTest {

    @Test
    void listsEveryComponentThatAScanOfTheApplicationFinds() throws IOException {
        Set<String> listed = new TreeSet<>(Arrays.asList(ServerComponents.COMPONENTS));
        Set<String> scanned = new TreeSet<>();
        AnnotationTypeFilter component = new AnnotationTypeFilter(Component.class);
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false) {
            // every component, its conditions (web application, properties) left to the start that registers it
            @Override
            protected boolean isCandidateComponent(MetadataReader reader) throws IOException {
                return component.match(reader, getMetadataReaderFactory());
            }
        };
        for (BeanDefinition candidate : scanner.findCandidateComponents("io.kuberaysim")) {
            String name = candidate.getBeanClassName();
            boolean fromTests = candidate instanceof AbstractBeanDefinition d
                    && d.getResource() != null && d.getResource().getURI().toString().contains("/test-classes/");
            // nested configuration classes are registered with the class they are declared in
            boolean nestedInListed = name.contains("$") && listed.contains(name.substring(0, name.indexOf('$')));
            boolean application = name.equals(KuberaySimApplication.class.getName());
            if (!fromTests && !nestedInListed && !application) {
                scanned.add(name);
            }
        }
        assertThat(listed).isEqualTo(scanned);
    }
}
