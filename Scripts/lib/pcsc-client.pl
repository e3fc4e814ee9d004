#!/usr/bin/perl
# A PC/SC client driven line by line on standard input, for tests and debugging against the
# real pcscd (Debian package libpcsc-perl). One output line per command:
#   readers                      -> reader names separated by '|'
#   connect READER               -> "ok ATR-HEX" or "error 0xCODE"
#   transmit HEX                 -> "ok RESPONSE-HEX" (possibly empty) or "error 0xCODE"
#   time COUNT HEX               -> "ok MICROSECONDS-PER-APDU LAST-RESPONSE-HEX" or "error 0xCODE"
#   reconnect leave|reset|unpower -> "ok" or "error 0xCODE"
#   disconnect leave|reset|unpower -> "ok" or "error 0xCODE"
#   wait present|absent READER MS -> "ok EVENT-STATE-HEX" or "timeout" (the state is looked at
#                                    at least once, even with MS 0 or a late start; pcsc-lite
#                                    keeps the reader's count of card events in its upper 16 bits)
#   quit
use strict;
use warnings;
use Chipcard::PCSC;
use Chipcard::PCSC::Card;
use Time::HiRes qw(time);

$| = 1;
my $context = Chipcard::PCSC->new();
die "error: cannot reach pcscd\n" unless defined $context;
my $card;
my %disposition = (
    leave => $Chipcard::PCSC::SCARD_LEAVE_CARD,
    reset => $Chipcard::PCSC::SCARD_RESET_CARD,
    unpower => $Chipcard::PCSC::SCARD_UNPOWER_CARD,
);
my $protocols = $Chipcard::PCSC::SCARD_PROTOCOL_T0 | $Chipcard::PCSC::SCARD_PROTOCOL_T1;

sub failure { return sprintf("error 0x%08X", ($Chipcard::PCSC::errno + 0) & 0xFFFFFFFF); }
sub tohex { return join("", map { sprintf("%02X", $_) } @{ $_[0] }); }
sub frombytes { my $text = shift; $text =~ s/[^0-9A-Fa-f]//g; return [ map { hex } ($text =~ /(..)/g) ]; }

while (my $line = <STDIN>) {
    chomp $line;
    my ($command, @arguments) = split(' ', $line);
    next unless defined $command;
    if ($command eq 'quit') {
        last;
    } elsif ($command eq 'readers') {
        my @readers = $context->ListReaders();
        print join('|', @readers), "\n";
    } elsif ($command eq 'connect') {
        my $reader = join(' ', @arguments);
        $card = Chipcard::PCSC::Card->new($context, $reader, $Chipcard::PCSC::SCARD_SHARE_SHARED, $protocols);
        if (!defined $card) { print failure(), "\n"; next; }
        my @status = $card->Status();
        my $atr = ref($status[3]) eq "ARRAY" ? $status[3] : [];
        print "ok ", tohex($atr), "\n";
    } elsif ($command eq 'transmit' || $command eq 'time') {
        if (!defined $card) { print "error not-connected\n"; next; }
        my $count = $command eq 'time' ? shift(@arguments) : 1;
        my $apdu = frombytes(join('', @arguments));
        my $response;
        my $start = time();
        for (my $index = 0; $index < $count; $index++) {
            $response = $card->Transmit($apdu);
            last unless defined $response;
        }
        my $elapsed = time() - $start;
        if (!defined $response) { print failure(), "\n"; next; }
        if ($command eq 'time') {
            printf("ok %.1f %s\n", $elapsed * 1e6 / $count, tohex($response));
        } else {
            print "ok ", tohex($response), "\n";
        }
    } elsif ($command eq 'reconnect') {
        if (!defined $card) { print "error not-connected\n"; next; }
        my $result = $card->Reconnect($Chipcard::PCSC::SCARD_SHARE_SHARED, $protocols, $disposition{$arguments[0] // 'leave'});
        print defined $result ? "ok\n" : failure() . "\n";
    } elsif ($command eq 'disconnect') {
        if (!defined $card) { print "ok\n"; next; }
        my $result = $card->Disconnect($disposition{$arguments[0] // 'leave'});
        undef $card;
        print $result ? "ok\n" : failure() . "\n";
    } elsif ($command eq 'wait') {
        my ($wanted, @rest) = @arguments;
        my $timeout = pop(@rest);
        my $reader = join(' ', @rest);
        my $flag = $wanted eq 'present' ? $Chipcard::PCSC::SCARD_STATE_PRESENT : $Chipcard::PCSC::SCARD_STATE_EMPTY;
        my @states = ({ reader_name => $reader, current_state => $Chipcard::PCSC::SCARD_STATE_UNAWARE });
        my $deadline = time() + $timeout / 1000;
        my $answer = 'timeout';
        while (1) {
            my $left = int(($deadline - time()) * 1000);
            $left = 0 if $left < 0;
            $context->GetStatusChange(\@states, $left);
            my $event = $states[0]{event_state} // 0;
            if ($event & $flag) { $answer = sprintf("ok %X", $event); last; }
            last if $left == 0;
            $states[0]{current_state} = $event & ~$Chipcard::PCSC::SCARD_STATE_CHANGED;
        }
        print "$answer\n";
    } else {
        print "error unknown-command\n";
    }
}
