#!/usr/bin/perl
# The parameter tables of the documents against the registry: every model's table in
# docs/core-api.md ("### MODEL (...)") and in docs/models/MODEL.md (the table whose header starts
# "| name | default") lists each parameter `impax models MODEL` prints, no other, each with the
# registry's default. A default cell is a number (a Unicode minus allowed), a fraction a/b, or
# text ending "= NUMBER" or followed by a parenthesis ("1.21429 (17/14)"); it must agree with the
# registry to 1e-4 relative, the digits the tables print.
#   check_param_tables.pl REPO IMPAX
# Prints each disagreement as FILE:LINE: message; exits 1 if there is one.
use strict;
use warnings;
use utf8;
use open qw(:std :encoding(UTF-8));

my ($repo, $impax) = @ARGV;
die "usage: check_param_tables.pl REPO IMPAX\n" unless defined $impax;
my @models = qw(plus aplcp routh jia bowling gonthier);
my $bad = 0;

sub complain { print "$_[0]\n"; $bad = 1; }

# The registry's defaults of model, from `impax models MODEL` ("  NAME  default VALUE; ..."
# before its "  more:" line).
sub registry {
    my ($model) = @_;
    open(my $p, '-|', $impax, 'models', $model) or die "cannot run $impax: $!\n";
    my %def;
    while (<$p>) {
        last if /^  more:/; # the keys every model takes follow: not the model's own
        $def{$1} = $2 if /^  (\w+)\s+default ([^;\s]+)/;
    }
    1 while <$p>;
    close $p or die "$impax models $model failed\n";
    die "$impax models $model: no parameters read\n" unless %def;
    return \%def;
}

# A default cell as a number, or undef.
sub value_of {
    my ($cell) = @_;
    $cell =~ s/−/-/g;
    $cell =~ s/.*=\s*//;
    $cell =~ s/\s*\(.*\)\s*$//;
    $cell =~ s/^\s+|\s+$//g;
    return $1 / $2 if $cell =~ m{^(-?[0-9.]+)\s*/\s*([0-9.]+)$};
    return $cell if $cell =~ /^-?[0-9.]+(?:e[-+]?[0-9]+)?$/i;
    return undef;
}

# The rows (line, name, default cell) of the first "| name | default" table at or after line
# `from` of file (1-based), or of none when there is no such table.
sub table_rows {
    my ($file, $from) = @_;
    open(my $f, '<', "$repo/$file") or die "cannot read $file: $!\n";
    my (@rows, $in);
    while (my $line = <$f>) {
        next if $. < $from;
        if (!$in) { $in = 1 if $line =~ /^\|\s*name\s*\|\s*default\s*\|/; next; }
        next if $line =~ /^\|\s*-/;
        last unless $line =~ /^\|/;
        my @cell = split /\|/, $line;
        push @rows, [$., $1, $cell[2]] if $cell[1] =~ /`(\w+)`/;
    }
    return \@rows;
}

# The line of core-api.md's heading "### MODEL (" (0 if missing).
sub heading_line {
    my ($model) = @_;
    open(my $f, '<', "$repo/docs/core-api.md") or die "cannot read docs/core-api.md: $!\n";
    while (<$f>) { return $. if /^### \Q$model\E \(/; }
    return 0;
}

for my $model (@models) {
    my $def = registry($model);
    my $at = heading_line($model);
    complain("docs/core-api.md: no heading '### $model (' for its parameter table") unless $at;
    for my $where (["docs/core-api.md", $at], ["docs/models/$model.md", 1]) {
        my ($file, $from) = @$where;
        next unless $from;
        my $rows = table_rows($file, $from);
        my %seen;
        for my $row (@$rows) {
            my ($line, $name, $cell) = @$row;
            $seen{$name} = 1;
            if (!exists $def->{$name}) {
                complain("$file:$line: $model has no parameter '$name'");
                next;
            }
            my $doc = value_of($cell);
            my $reg = $def->{$name};
            if (!defined $doc) {
                complain("$file:$line: $model $name: default '$cell' is not a number");
            } elsif (abs($doc - $reg) > 1e-4 * abs($reg)) {
                (my $shown = $cell) =~ s/^\s+|\s+$//g;
                complain("$file:$line: $model $name: the table says $shown, the registry $reg");
            }
        }
        for my $name (sort keys %$def) {
            complain("$file: the table of $model lacks '$name'") unless $seen{$name};
        }
    }
}
exit $bad;
