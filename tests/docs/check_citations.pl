#!/usr/bin/perl
# Every file a comment or a document cites is in the repository, every section it cites by number
# or by title is there, and every link of a document resolves (CONTRIBUTING.md: code cites files
# in the repository only). Perl because Debian always has it (perl-base is essential).
#   check_citations.pl REPO
# Checked in the comments of the sources (.c, .h, CMakeLists.txt, .cmake, .html under core,
# adapters, plugin, bench, tests) and in every document (*.md):
#   a path with a folder and a known extension (core/src/numerics/nsgs.c, docs/models/plus.md):
#     the file exists, relative to the repository, to the citing file's folder or to a public
#     include folder (impax/ode.h);
#   a bare .c or .h name in a source (nsgs.h): a file of that name exists in the repository;
#   a bare .md name: it exists beside the citing file or at the top (README.md);
#   "FILE.md §N.M" and 'FILE.md "Title"': the document has a heading (or a list item whose bold
#     label) is numbered N.M, or begins with Title;
#   a Markdown link [text](target#anchor) with a relative target: the target exists, and the
#     anchor is one of its headings (GitHub's rule: lower case, punctuation dropped, spaces to -).
# CHANGELOG.md names files as they were when it changed them: only its links are checked.
# Prints each broken citation as FILE:LINE: message; exits 1 if there is one.
use strict;
use warnings;
use File::Find;

my $repo = shift or die "usage: check_citations.pl REPO\n";
chdir $repo or die "check_citations: cannot enter $repo: $!\n";

my (@files, %base_names);
find({ no_chdir => 1, wanted => sub {
    if (-d $_ && ($_ eq './.git' || m{^\./build[^/]*$})) { $File::Find::prune = 1; return; }
    return unless -f $_;
    (my $f = $_) =~ s{^\./}{};
    push @files, $f;
    (my $b = $f) =~ s{.*/}{};
    $base_names{$b} = 1;
} }, '.');

my @include_dirs = ('core/include', 'adapters/ode/include');
my $failed = 0;
sub report { print "$_[0]\n"; $failed = 1; }

sub resolve {
    my ($cited, $dir) = @_;
    for my $p ($cited, "$dir/$cited", map { "$_/$cited" } @include_dirs) { return $p if -f $p; }
    return undef;
}

my %headings; # document -> [heading texts]
my %labels;   # document -> [bold labels of list items]: sections too, but no link anchors
sub headings_of {
    my ($doc) = @_;
    return $headings{$doc} if $headings{$doc};
    open my $fh, '<', $doc or return [];
    my @h;
    my $fence = 0;
    while (<$fh>) {
        $fence = !$fence if /^```/;
        next if $fence;
        push @h, $1 if /^#+\s+(.*?)\s*$/;
        push @{ $labels{$doc} }, $1 if /^\s*[*-] \*\*(.*?)\*\*/; # "* **6.5 Tension.** ..."
    }
    return $headings{$doc} = \@h;
}

sub has_section {
    my ($doc, $section) = @_;
    headings_of($doc);
    for my $h (@{ $headings{$doc} }, @{ $labels{$doc} || [] }) {
        (my $t = $h) =~ s/^§\s?//;
        return 1 if index($t, $section) == 0 && (length($t) == length($section) || substr($t, length $section, 1) =~ /[ .:)]/);
    }
    return 0;
}

sub anchor { my $a = lc shift; $a =~ s/[^a-z0-9 _-]//g; $a =~ s/ /-/g; return $a; }

sub check_sections {
    my ($where, $text, $doc) = @_;
    (my $name = $doc) =~ s{.*/}{};
    while ($text =~ /\Q$name\E (?:§|section )([A-Z]?\d+(?:\.\d+)*)/g) {
        report("$where: $name has no section $1") unless has_section($doc, $1);
    }
    while ($text =~ /\Q$name\E,? "([^"]+)"/g) {
        report("$where: $name has no section \"$1\"") unless has_section($doc, $1);
    }
}

# The comment text of one line of C (the state of a /* comment carried in $$open).
sub c_comments {
    my ($line, $open) = @_;
    my $out = '';
    while (length $line) {
        if ($$open) {
            if ($line =~ s{^(.*?)\*/}{}) { $out .= "$1 "; $$open = 0; } else { $out .= $line; last; }
        } elsif ($line =~ s{^(?:[^"/]|"(?:[^"\\]|\\.)*"|/(?![*/]))*}{}) {
            if ($line =~ s{^//(.*)}{}s) { $out .= $1; last; }
            if ($line =~ s{^/\*}{}) { $$open = 1; next; }
            last;
        } else { last; }
    }
    return $out;
}

my $ext = qr/(?:c|h|md|world|sdf|cmake|sh|pl|html|in|supp|dict)/;
for my $file (sort @files) {
    my $is_doc = $file =~ /\.md$/;
    my $history = $file eq 'CHANGELOG.md'; # names files as they were: only its links are checked
    next unless $is_doc || $file =~ m{^(core|adapters|plugin|bench|tests)/.*(\.c|\.h|CMakeLists\.txt|\.cmake|\.html)$};
    (my $dir = $file) =~ s{/[^/]*$}{};
    $dir = '.' if $dir eq $file;
    open my $fh, '<', $file or next;
    my ($fence, $in_comment) = (0, 0);
    my $is_c = $file =~ /\.[ch]$/;
    while (my $line = <$fh>) {
        my $where = "$file:$.";
        my $text = $is_doc ? $line : $is_c ? c_comments($line, \$in_comment)
                 : $file =~ /\.html$/ ? $line : ($line =~ /(?:^|\s)#(?!include)(.*)/ ? $1 : '');
        $text =~ s{\.c/\.h\b}{.c .h}g; # "nsgs.c/.h" cites nsgs.c and nsgs.h
        my $scan = $text;
        $scan =~ s{\[[^\]]*\]\([^)\s]*\)}{ }g if $is_doc; # links: checked below, once
        my %seen;
        while (!$history && $scan =~ m{(?<![A-Za-z0-9_./%-])([A-Za-z][A-Za-z0-9_./-]*\.$ext)(?![A-Za-z0-9_])}g) {
            my $cited = $1;
            next if $seen{$cited}++;
            next if $cited =~ m{^(/|build|ode/)|/build/|CMakeFiles|^include/ode/|\*};
            if ($cited =~ m{/}) {
                my $found = resolve($cited, $dir);
                if (!$found) { report("$where: cites $cited, which is not in the repository"); }
                elsif ($cited =~ /\.md$/) { check_sections($where, $text, $found); }
            } elsif ($cited =~ /\.md$/) {
                my $found = -f "$dir/$cited" ? "$dir/$cited" : -f $cited ? $cited : undef;
                if (!$found) { report("$where: cites $cited, which is neither beside it nor at the top"); }
                else { check_sections($where, $text, $found); }
            } elsif ($cited =~ /\.[ch]$/ && !$is_doc) { # documents name system and ODE headers too
                report("$where: cites $cited, which is not in the repository") unless $base_names{$cited};
            }
        }
        next unless $is_doc;
        $fence = !$fence if $text =~ /^```/;
        next if $fence;
        while ($text =~ /\]\(([^)\s]+)\)/g) {
            my $link = $1;
            next if $link =~ m{^(https?|mailto):};
            my ($target, $frag) = split /#/, $link, 2;
            my $doc = $file;
            if (defined $target && $target ne '') {
                $doc = $dir eq '.' ? $target : "$dir/$target";
                if (!-e $doc) { report("$where: link to $target, which does not exist"); next; }
            }
            next unless defined $frag && -f $doc;
            report("$where: link to $link: no such heading in $doc")
                unless grep { anchor($_) eq $frag } @{ headings_of($doc) };
        }
    }
    close $fh;
}
print "every cited file, section and link resolves\n" unless $failed;
exit $failed;
