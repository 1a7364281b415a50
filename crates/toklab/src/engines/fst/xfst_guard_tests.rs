use super::*;

fn refused(text: &str) -> String {
    match check(Path::new("evil.xfst"), text) {
        Ok(()) => panic!("accepted: {text:?}"),
        Err(e) => e.to_string(),
    }
}

fn accepted(text: &str) {
    if let Err(e) = check(Path::new("ok.xfst"), text) {
        panic!("refused {text:?}: {e}");
    }
}

#[test]
fn commands_that_reach_the_shell_or_files_are_refused_with_file_and_line() {
    let err = refused("define A a ;\n\nsystem touch PWNED\n");
    assert!(err.contains("evil.xfst:3"), "{err}");
    assert!(err.contains("shell"), "{err}");
    assert!(err.contains("allow=files"), "{err}");
    for bad in [
        "sy touch PWNED",
        "  system touch PWNED",
        "source other.xfst",
        "save stack out.fst",
        "ss out.fst",
        "save defined d.bin",
        "load stack x.fst",
        "read lexc words.lexc",
        "read att x.att",
        "write att > x.att",
        "print words > out.txt",
        "words > out.txt",
        "export cmatrix x",
        "view net",
        "print dot",
        "apply down < in.txt",
        "regex a ;\nprint net > x",
        "regex @\"other.fst\" ;",
        "regex a | @re\"defs.txt\" ;",
        "define X [ a |\n @txt\"words.txt\" ] ;",
        "regex a\0 ;\nsystem touch PWNED\n",
    ] {
        refused(bad);
    }
}

#[test]
fn a_command_hidden_after_a_statement_that_ends_at_the_line_is_found() {
    // `define X` alone names the stack's top and ends at the line: the next line is a command.
    let err = refused("regex a ;\ndefine X\nsystem touch PWNED\nregex b ;\n");
    assert!(err.contains("evil.xfst:3"), "{err}");
    // `regex` without a blank after it is no regex in foma: the next line is a command.
    refused("regex\nsystem touch PWNED\n;\n");
    // A regex never closed does not swallow the rest unseen.
    refused("regex a | b\n");
}

#[test]
fn network_building_scripts_pass() {
    accepted(
        "# a comment\n! another\ndefine TB \"@_TOKEN_BOUND_@\" ;\n\
         define Blank [ \" \" | \"\\u0009\" ] ;  # system is only a word here\n\
         define Word [ a | b ]+ ;\ndefine F(x) [ x x ] ;\nNAME = [ Word %; ] ;\n\
         regex [ Word TB | Blank:0 ]* .o. [ ?* ] ;\n\
         regex { system } | \"save\" | %@ ;\n\
         read regex a\n  | b ;\n\
         define Two\nminimize net\nprint size\npush Word\nset flag-is-epsilon ON\n",
    );
    // A `;` in quotes, braces, after `%` or in a comment does not end the expression.
    accepted("regex [ \";\" | {;} | %; # ; here\n ] ;\nsigma\n");
}

#[test]
fn the_shipped_grammars_pass() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/fst");
    for name in ["english.xfst", "simple.xfst", "toy.xfst"] {
        let path = samples.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        check(&path, &text).unwrap();
    }
}
