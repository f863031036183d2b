#!/usr/bin/perl
# Perl's WWW::RobotRules (libwww-perl) as `robotstxt conformance --batch-command` asks it
# (docs/testing-implementations.md): one JSON line in per case ({"robots": <file>, "agent": <token>, "url":
# <url>}), one {"verdict": ...} out, in order. Called as its documentation shows: WWW::RobotRules->new($agent),
# $rules->parse($robots_txt_url, $content) with the robots.txt URL of the case URL's host, then
# $rules->allowed($url). The file's bytes are given as read (as LWP gives a response's content). --version
# prints the version that ran.
use strict;
use warnings;
use JSON::PP;
use URI;
use WWW::RobotRules;

if (@ARGV == 1 && $ARGV[0] eq '--version') {
    print "$WWW::RobotRules::VERSION\n";
    exit 0;
}

$| = 1;
my $json = JSON::PP->new->canonical;
while (my $line = <STDIN>) {
    my $case = decode_json($line);
    my $answer = eval {
        open(my $file, '<:raw', $case->{robots}) or die "cannot read $case->{robots}: $!\n";
        local $/;
        my $content = <$file>;
        $content = '' unless defined $content;
        close($file);
        my $url = URI->new($case->{url});
        my $rules = WWW::RobotRules->new($case->{agent});
        $rules->parse($url->scheme . '://' . $url->host_port . '/robots.txt', $content);
        { verdict => ($rules->allowed($case->{url}) ? 'allowed' : 'disallowed') };
    };
    $answer = { error => "$@" } unless defined $answer;
    print $json->encode($answer), "\n";
}
