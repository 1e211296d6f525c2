#!/usr/bin/perl
# check_citations.pl finds what it is for: in a small tree with one broken citation of each kind
# it reports each one and exits 1; with them mended it reports none and exits 0.
#   test_check_citations.pl CHECKER
use strict;
use warnings;
use File::Temp qw(tempdir);
use File::Path qw(make_path);

my $checker = shift or die "usage: test_check_citations.pl CHECKER\n";
my $tree = tempdir(CLEANUP => 1);
sub put {
    my ($path, $text) = @_;
    (my $dir = "$tree/$path") =~ s{/[^/]*$}{};
    make_path($dir);
    open my $fh, '>', "$tree/$path" or die "$path: $!\n";
    print $fh $text;
}
sub run {
    my $out = `perl $checker $tree 2>&1`;
    return ($? >> 8, $out);
}

put('docs/models/plus.md', "# PLUS\n## 5.3 Table 1\n## Deviations\n");
put('core/src/models/plus/plus.c', "/* Table 1 (docs/models/plus.md §5.3), see plus_cor.c */\n");
put('core/src/models/plus/plus_cor.c', "/* docs/models/plus.md \"Deviations\" */\n#include <math.h>\n");
put('README.md', "[PLUS](docs/models/plus.md#53-table-1), `core/src/models/plus/plus.c`\n");
my ($rc, $out) = run();
die "a clean tree failed (exit $rc):\n$out" unless $rc == 0 && $out =~ /every cited file/;

put('core/src/models/plus/plus.c', "/* Table 1 (docs/models/plus.md §5.4), see cor.c and core/src/plus.c */\n");
put('core/src/models/plus/plus_cor.c', "/* docs/models/plus.md \"Gone\" */\n");
put('README.md', "[PLUS](docs/models/plus.md#54-table-1), [x](docs/none.md)\n");
($rc, $out) = run();
my @expected = (
    qr{^core/src/models/plus/plus\.c:1: plus\.md has no section 5\.4$}m,
    qr{^core/src/models/plus/plus\.c:1: cites cor\.c, which is not in the repository$}m,
    qr{^core/src/models/plus/plus\.c:1: cites core/src/plus\.c, which is not in the repository$}m,
    qr{^core/src/models/plus/plus_cor\.c:1: plus\.md has no section "Gone"$}m,
    qr{^README\.md:1: link to docs/models/plus\.md#54-table-1: no such heading in docs/models/plus\.md$}m,
    qr{^README\.md:1: link to docs/none\.md, which does not exist$}m,
);
my @missed = grep { $out !~ $_ } @expected;
die "exit $rc, not 1, on a broken tree:\n$out" unless $rc == 1;
die "not reported: @missed\nreport:\n$out" if @missed;
print "the checker passes a clean tree and reports all ", scalar @expected, " broken citations\n";
