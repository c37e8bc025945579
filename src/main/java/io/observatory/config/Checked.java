package io.observatory.config;

/**
 * A settings record with rules that span several of its properties or need more than an annotation can say (a direct
 * outbound takes no address, a username needs a password, tags are unique, a token file must hold a token). The
 * binder checks it once its properties are bound and its field constraints checked, in the same pass, and reports
 * each problem on the property it names, in one line like any other bad value.
 */
public interface Checked {

    /**
     * Reports every rule this record breaks; null-checked fields may still be null here (their own constraint reports
     * them).
     *
     * @param problems where to report, and what the check may read of the process
     */
    void check(Problems problems);
}
