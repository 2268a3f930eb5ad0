package io.sluice.s3;

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
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The module exports {@code io.sluice.s3} only, and no public signature mentions an internal type. */
class ModuleDescriptorTest {

    private static final List<Class<?>> API =
            List.of(ReactiveObject.class, UploadOptions.class, UploadResult.class, ObjectUploadException.class);

    @Test
    void exportsOnlyTheApiPackage() {
        Path classes = Path.of(ReactiveObject.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
        ModuleReference module = ModuleFinder.of(classes)
                .find("io.sluice.s3")
                .orElseThrow(() -> new AssertionError("no module io.sluice.s3 in " + classes));
        ModuleDescriptor descriptor = module.descriptor();
        assertEquals(
                Set.of("io.sluice.s3"),
                descriptor.exports().stream()
                        .map(ModuleDescriptor.Exports::source)
                        .collect(Collectors.toSet()));
        assertEquals(
                Set.of("io.sluice", "software.amazon.awssdk.services.s3"),
                descriptor.requires().stream()
                        .filter(requirement ->
                                requirement.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                        .map(ModuleDescriptor.Requires::name)
                        .collect(Collectors.toSet()),
                "the API's own types come from these two");
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
