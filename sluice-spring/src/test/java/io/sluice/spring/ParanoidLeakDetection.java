package io.sluice.spring;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Runs a test class with Netty's leak detector at PARANOID (tracking every buffer), then restores its level. */
final class ParanoidLeakDetection implements BeforeAllCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ParanoidLeakDetection.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put(ResourceLeakDetector.Level.class, ResourceLeakDetector.getLevel());
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ResourceLeakDetector.setLevel(
                context.getStore(NAMESPACE).get(ResourceLeakDetector.Level.class, ResourceLeakDetector.Level.class));
    }
}
