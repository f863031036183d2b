#!/usr/bin/ruby
# Ruby's webrobots gem as `robotstxt conformance --batch-command` asks it (docs/testing-implementations.md):
# one JSON line in per case ({"robots": <file>, "agent": <token>, "url": <url>}), one {"verdict": ...} out, in
# order. Called as its documentation shows: WebRobots.new(user_agent, http_get: ...), the http_get hook giving
# the file's content for the robots.txt it asks, then allowed?(url). A new WebRobots per case (its cache is
# per instance). --version prints the version that ran.
require 'json'
require 'webrobots'

if ARGV == ['--version']
  spec = Gem.loaded_specs['webrobots'] || (Gem::Specification.find_by_name('webrobots') rescue nil)
  puts(spec ? spec.version.to_s : 'unknown')
  exit 0
end

$stdout.sync = true
$stdin.each_line do |line|
  kase = JSON.parse(line)
  answer =
    begin
      content = File.binread(kase['robots'])
      robots = WebRobots.new(kase['agent'], http_get: ->(_uri) { content })
      { 'verdict' => robots.allowed?(kase['url']) ? 'allowed' : 'disallowed' }
    rescue StandardError => error
      { 'error' => "#{error.class}: #{error.message}" }
    end
  puts JSON.generate(answer)
end
