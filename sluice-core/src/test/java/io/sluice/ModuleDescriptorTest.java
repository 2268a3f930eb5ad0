package io.sluice;

import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The module exports the API packages only, and no public signature mentions an internal type. */
class ModuleDescriptorTest {

    private static final List<Class<?>> API = List.of(
            ReactiveFile.class,
            ByteChannels.class,
            ByteStreams.class,
            BytePublisher.class,
            ReadOptions.class,
            WriteOptions.class,
            WriteMode.class,
            WriteListener.class,
            WriteSnapshot.class,
            IoExecutors.class,
            io.sluice.demand.Demand.class,
            io.sluice.demand.DemandStrategy.class,
            io.sluice.demand.DemandController.class,
            io.sluice.demand.DemandState.class,
            io.sluice.demand.AdaptiveDemand.class,
            io.sluice.http.FileBodyHandler.class);

    @Test
    void exportsTheApiPackagesToAllAndTheInternalsOnlyToTheSpringAndS3Modules() {
        Path classes = Path.of(ReactiveFile.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
        ModuleReference module = ModuleFinder.of(classes)
                .find("io.sluice")
                .orElseThrow(() -> new AssertionError("no module io.sluice in " + classes));
        ModuleDescriptor descriptor = module.descriptor();
        Set<String> exports = descriptor.exports().stream()
                .filter(export -> !export.isQualified())
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
        assertEquals(Set.of("io.sluice", "io.sluice.demand", "io.sluice.http"), exports);
        Set<String> qualified = descriptor.exports().stream()
                .filter(ModuleDescriptor.Exports::isQualified)
                .map(export -> export.source() + " to " + new TreeSet<>(export.targets()))
                .collect(Collectors.toSet());
        assertEquals(Set.of("io.sluice.internal to [io.sluice.s3, io.sluice.spring]"), qualified);
        assertTrue(descriptor.requires().stream()
                .anyMatch(requirement -> requirement.name().equals("org.reactivestreams")));
    }

    @Test
    void noPublicSignatureMentionsAnInternalType() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : API) {
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers())) {
                    check(leaks, type, method.getName(), method.getGenericReturnType());
                    for (Type parameter : method.getGenericParameterTypes()) {
                        check(leaks, type, method.getName(), parameter);
                    }
                }
            }
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (Modifier.isPublic(constructor.getModifiers())) {
                    for (Type parameter : constructor.getGenericParameterTypes()) {
                        check(leaks, type, "<init>", parameter);
                    }
                }
            }
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isPublic(field.getModifiers())) {
                    check(leaks, type, field.getName(), field.getGenericType());
                }
            }
        }
        assertEquals(List.of(), leaks);
    }

    private static void check(List<String> leaks, Class<?> owner, String member, Type type) {
        if (type.getTypeName().contains(".internal.")) {
            leaks.add(owner.getSimpleName() + "." + member + ": " + type.getTypeName());
        }
    }
}
